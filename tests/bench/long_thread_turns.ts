/**
 * Opt-in (a minute or more, so not a `*_bench.ts` that `deno task bench` runs): the same
 * warm tool turn as tool_turn_bench.ts, but every turn in ONE thread, so each Run's
 * context carries a growing history (up to what the fake model's window holds). Reports,
 * per block of 50 turns, the median turn time, the runtime's CPU per turn (all threads,
 * /proc), the size of the last model request and the runtime's resident memory: a turn's cost must level off once the
 * history fills the window, not keep growing with the conversation.
 *
 * Run: `deno run -A tests/bench/long_thread_turns.ts [turns]` (default 300). Results in
 * packages/runtime/README.md.
 */
import {
  cpuMs,
  rssMiB,
  startDaedalus,
  summarize,
  timedTurn,
  toolTurnResponses,
} from "./_tool_turn.ts";

const BLOCK = 50;
const turns = Number(Deno.args[0] ?? 300);
await using daedalus = await startDaedalus();
const client = await daedalus.client();
const { thread } = await client.call("thread.create", {
  title: "long",
  workspace: { rootUri: daedalus.workspace },
});
let times: number[] = [];
let cpuBefore = await cpuMs(daedalus.pid);
for (let turn = 1; turn <= turns; turn++) {
  daedalus.fake.enqueue(...toolTurnResponses());
  times.push(await timedTurn(client, [client], thread.id, "read notes.txt"));
  if (turn % BLOCK !== 0) continue;
  const cpu = await cpuMs(daedalus.pid);
  const chat = daedalus.fake.requests.filter((r) => r.path.endsWith("/chat/completions"));
  const last = chat.at(-1)?.body as { messages?: unknown[] } | undefined;
  const { median, p90 } = summarize(times);
  console.log(
    `turns ${turn - BLOCK + 1}–${turn}: median ${median.toFixed(1)} ms, p90 ${
      p90.toFixed(1)
    } ms, ` +
      `runtime CPU ${
        cpu === null || cpuBefore === null ? "?" : ((cpu - cpuBefore) / BLOCK).toFixed(1)
      } ms per turn; last request ${(JSON.stringify(last).length / 1024).toFixed(1)} KB, ` +
      `${last?.messages?.length ?? "?"} messages; VmRSS ${
        (await rssMiB(daedalus.pid)).toFixed(1)
      } MiB`,
  );
  daedalus.fake.requests.length = 0;
  times = [];
  cpuBefore = cpu;
}
if (daedalus.fake.refusals.length > 0) {
  throw new Error(`the fake refused ${daedalus.fake.refusals.length} requests`);
}
console.log(`load average ${(await Deno.readTextFile("/proc/loadavg")).trim()}`);
await client.close();
