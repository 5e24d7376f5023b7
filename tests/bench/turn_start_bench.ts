/**
 * turn.start up to its acknowledgement, in process: the handler freezes the RunConfig
 * (config.yaml, the skills folder, tool schemas, identity), inspects attachments and
 * commits the turn; the response is what it returns. The run is not enqueued
 * (`afterResponse` is not called), so no model call competes with the measurement. A new
 * thread per turn (not timed), all 21 built-in tools, a config.yaml and 5 skills on disk.
 *
 * At load it prints the median and p90 of 200 turns after 20 warm-up turns; then
 * `Deno.bench` times the same call. Results: packages/runtime/README.md.
 */
import { join } from "node:path";
import { homePaths } from "@daedalus/storage";
import { openRuntimeCore } from "../../packages/runtime/runtime_core.ts";
import { createScriptedProvider } from "../../packages/runtime/providers/scripted.ts";
import type { RpcSession } from "../../packages/runtime/server/dispatcher.ts";

const WARMUP_TURNS = 20;
const MEASURED_TURNS = 200;
const SKILLS = 5;

const session: RpcSession = { id: "bench", transport: "http" };
const home = await Deno.makeTempDir({ prefix: "daedalus-turn-start-bench-" });
const paths = homePaths(home);
await Deno.mkdir(paths.skills, { recursive: true });
for (let index = 0; index < SKILLS; index++) {
  const name = `skill-${index}`;
  await Deno.mkdir(join(paths.skills, name));
  await Deno.writeTextFile(
    join(paths.skills, name, "SKILL.md"),
    `---\nname: ${name}\ndescription: "Does thing number ${index} well"\n---\n\nBody.\n`,
  );
}
await Deno.writeTextFile(
  paths.config,
  [
    "version: 1",
    "providers:",
    "  local:",
    "    type: openai_compatible",
    "    base_url: http://127.0.0.1:9/v1",
    "    models:",
    "      small: {}",
    "skills:",
    "  disabled: [skill-4]",
    "",
  ].join("\n"),
);
const core = await openRuntimeCore({
  home,
  workspacesRoot: join(home, "workspaces"),
  providers: [createScriptedProvider({ script: () => ({ text: ["ok"] }) })],
  threadTitles: false,
  memoryRefinement: false,
});

async function ackMs(): Promise<number> {
  const created = await core.dispatcher.dispatch("thread.create", { title: "t" }, session);
  const threadId = (created.result as { thread: { id: string } }).thread.id;
  const params = { threadId, content: "go", providerId: "scripted", modelId: "scripted-model" };
  const started = performance.now();
  await core.dispatcher.dispatch("turn.start", params, session);
  return performance.now() - started;
}

for (let turn = 0; turn < WARMUP_TURNS; turn++) await ackMs();
const times: number[] = [];
for (let turn = 0; turn < MEASURED_TURNS; turn++) times.push(await ackMs());
times.sort((a, b) => a - b);
const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
console.log(
  `turn.start ack (in process, ${MEASURED_TURNS} turns): median ${at(0.5).toFixed(2)} ms, ` +
    `p90 ${at(0.9).toFixed(2)} ms`,
);

Deno.bench("runtime: turn.start until its acknowledgement (new thread per turn)", async (b) => {
  const created = await core.dispatcher.dispatch("thread.create", { title: "t" }, session);
  const threadId = (created.result as { thread: { id: string } }).thread.id;
  const params = { threadId, content: "go", providerId: "scripted", modelId: "scripted-model" };
  b.start();
  await core.dispatcher.dispatch("turn.start", params, session);
  b.end();
});

// unload cannot wait for close(); the store's files can go while open (POSIX).
globalThis.addEventListener("unload", () => {
  try {
    Deno.removeSync(home, { recursive: true });
  } catch {
    // Left in the temp folder: harmless.
  }
});
