/**
 * The one definition of the Deno permission flags the runtime ships with. `deno task start`
 * and `deno task dev` splice them in (`deno run $(deno run scripts/runtime_flags.ts) …`),
 * every end-to-end and browser test spawns the runtime with exactly these, and the compiled
 * executable bakes in the same list. Run as a script, it prints them space-separated.
 *
 * Why each one (the README's table says the same for users):
 * - `--allow-read`, `--allow-write`: the home, the workspaces and the built app. The tools
 *   confine each Run to its workspace themselves (resolved paths, checked handles), and the
 *   narrowed modes add a Worker whose Deno permissions cover only the workspace.
 * - `--allow-env`: `DAEDALUS_*`, `HOME`/`USERPROFILE`, and `LOG_TOKENS`/`LOG_STREAM` read by
 *   npm:yaml.
 * - `--allow-net`: outbound HTTPS to whatever provider or tool server the user configures
 *   (any host, loopback on any port). Where the runtime listens is decided by its own
 *   `--host`/`--port` handling (loopback unless `--host` says otherwise), not by this flag.
 * - `--allow-run`: the commands a `full_access` Run starts (`/bin/sh`, `script` for PTYs,
 *   `ps` for custody), and the stdio MCP servers config.yaml names (`mcp.servers`).
 * - `--unstable-worker-options`: the permission sandbox's Worker with narrowed permissions.
 * - `--v8-flags=--max-semi-space-size=2,--expose-gc`: V8's young generation at most 2 × 2 MiB. By
 *   default it grows to 2 × 16 MiB under the runtime's steady allocation (~2 MiB of
 *   short-lived objects per tool turn): measured over 1,000 warm tool turns, the heap
 *   grew to ~80 MiB for ~25 MiB of live objects, and RSS ended ~33 MiB higher than with
 *   this cap, at no measurable cost in tool-turn time (packages/runtime/README.md, "RSS").
 *   It caps only the nursery: the old generation and so the largest heap are unchanged.
 *   `--expose-gc` (same flag) gives the runtime V8's `gc()`: between Runs, once the heap
 *   has grown by 8 MiB (or a quarter of what was live), it collects and compacts
 *   (packages/runtime/scheduler/heap_trim.ts); V8 alone kept ~40 MiB of garbage after
 *   1,000 tool turns (RSS 167 MiB instead of 107–113).
 *
 * Never `-A`, never `--allow-ffi`, `--allow-sys` or `--allow-import`.
 *
 * `deno run` also gets `--node-modules-dir=manual` ({@linkcode RUNTIME_RUN_FLAGS}): in the
 * repository's `auto` mode, every `import()` that reaches npm packages takes node_modules'
 * file lock once per package request, ~10 ms each (measured: loading the runtime through
 * `import()` took ~1.4 s instead of ~0.33 s as a static import), which made each command's
 * modules loaded on use (cli/_load.ts) cost a second. The tasks run `deno install --frozen`
 * first, so node_modules is complete; `deno compile` resolves npm packages itself
 * (`--node-modules-dir=none`) and gets {@linkcode RUNTIME_FLAGS} alone.
 *
 * @module
 */

/** The runtime's permission flags, in the order the tasks pass them. */
export const RUNTIME_FLAGS: readonly string[] = Object.freeze([
  "--unstable-worker-options",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-net",
  "--allow-run",
  "--v8-flags=--max-semi-space-size=2,--expose-gc",
]);

/** How `deno run` starts the runtime: npm packages from node_modules as installed, then the flags. */
export const RUNTIME_RUN_FLAGS: readonly string[] = Object.freeze([
  "--node-modules-dir=manual",
  ...RUNTIME_FLAGS,
]);

if (import.meta.main) console.log(RUNTIME_RUN_FLAGS.join(" "));
