/**
 * Opt-in part of issue 13's tool-turn benchmark (it takes a minute or more, so it is not a
 * `*_bench.ts` that `deno task bench` runs): the runtime's resident memory over 1,000 warm
 * tool turns. The real `daedalus serve` with the shipped flags, the same fake model and
 * the same turn as tool_turn_bench.ts (a new thread per turn, one read, then the answer),
 * one @daedalus/client connection; VmRSS from /proc/<pid>/status after turn 1 and every
 * 100 turns. Reports RSS after 1,000 turns and its growth from turn 100 to turn 1,000.
 *
 * Run: `deno run -A tests/bench/tool_turn_rss.ts [turns]` (default 1000). Results in
 * packages/runtime/README.md.
 */
import { daedalusToolTurn, rssMiB, startDaedalus, summarize } from "./_tool_turn.ts";

const turns = Number(Deno.args[0] ?? 1000);
await using daedalus = await startDaedalus();
const client = await daedalus.client();
const samples: { turn: number; rssMiB: number }[] = [];
const times: number[] = [];
const started = performance.now();
for (let turn = 1; turn <= turns; turn++) {
  times.push(await daedalusToolTurn(daedalus, client));
  // The fake records every request; only the runtime's memory is measured.
  daedalus.fake.requests.length = 0;
  if (turn === 1 || turn % 100 === 0) {
    samples.push({ turn, rssMiB: await rssMiB(daedalus.pid) });
    console.log(`turn ${turn}: VmRSS ${samples.at(-1)!.rssMiB.toFixed(1)} MiB`);
  }
}
await client.close();
const at = (turn: number) => samples.find((sample) => sample.turn === turn)?.rssMiB ?? NaN;
const all = summarize(times);
const last = summarize(times.slice(-100));
const load = (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
console.log([
  `load average ${load}; ${turns} tool turns in ${
    ((performance.now() - started) / 1000).toFixed(0)
  } s`,
  `RSS after turn 1: ${at(1).toFixed(1)} MiB, turn 100: ${at(100).toFixed(1)} MiB, ` +
  `turn ${turns}: ${at(turns).toFixed(1)} MiB; growth 100 → ${turns}: ${
    (at(turns) - at(100)).toFixed(1)
  } MiB`,
  `tool turn over all ${turns}: median ${all.median.toFixed(1)} ms, p90 ${
    all.p90.toFixed(1)
  } ms; ` +
  `last 100: median ${last.median.toFixed(1)} ms, p90 ${last.p90.toFixed(1)} ms`,
].join("\n"));
