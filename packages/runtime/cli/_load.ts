/**
 * Loads a module when it is needed, with a specifier that is deliberately not a literal:
 * Deno builds the module graph of every literal `import("…")` at start-up, before any code
 * runs, so a command paid for the modules of every other command (measured: `daedalus
 * version` took ~0.9 s, ~0.1 s without them).
 *
 * Loading this way is cheap only when npm packages come from an installed node_modules
 * (`deno run --node-modules-dir=manual`, as the tasks and tests run the runtime): in `auto`
 * mode each npm package request of a module loaded on use takes node_modules' file lock,
 * ~10 ms each, and loading the runtime took ~1.4 s instead of ~0.33 s.
 *
 * Modules loaded this way are not in the entry point's static graph, so a compiled
 * executable must `--include` them: {@linkcode LAZY_MODULES} lists every one (a test checks
 * the list against the sources).
 *
 * @module
 */

/**
 * Every module loaded on use, relative to the repository root: pass each to `deno compile
 * --include` (their npm dependencies, the MCP SDK's among them, come with them).
 */
export const LAZY_MODULES: readonly string[] = Object.freeze([
  "packages/runtime/cli/serve.ts",
  "packages/runtime/cli/login.ts",
  "packages/runtime/cli/maintenance.ts",
  "packages/runtime/cli/jitless_schemas.ts",
  "packages/runtime/cli/headless.ts",
  "packages/runtime/cli/in_process_session.ts",
  "packages/runtime/cli/attached_session.ts",
  "packages/runtime/mcp/server_connection.ts",
  "packages/runtime/mcp/mcp_tool.ts",
]);

/**
 * Imports a module relative to `base`.
 *
 * @param specifier `./cli/serve.ts`, `./in_process_session.ts`
 * @param base the importing module's `import.meta.url`
 * @returns the module; type it with `typeof import("…")` at the call
 */
export function load<T>(specifier: string, base: string): Promise<T> {
  return import(new URL(specifier, base).href);
}
