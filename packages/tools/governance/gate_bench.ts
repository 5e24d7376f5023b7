/**
 * What the policy gate adds to one call (issue 14: ≤ 0.2 ms): a `read` of a small file
 * through `executeTool` with a Run's gate (the workspace_write preset plus 10 config
 * rules, a loop detector that has seen 200 calls, breakers among 50 tools) against the
 * same read with the gate's stages off (no gate: the preset's rules only — the check that
 * replaced the risk-class one), and the gate's admission alone. At load it prints the
 * difference per call from paired rounds (the "≤ 0.2 ms per tool call"). Run with
 * `deno task bench`; results in packages/tools/README.md.
 */
import { join } from "node:path";
import { createRunMemo, type ToolContext } from "../tool.ts";
import { executeTool } from "../execute.ts";
import { admitCall, createRunGate } from "../gate.ts";
import { readTool } from "../files/read.ts";
import { createCircuitBreakers } from "./circuit_breaker.ts";

const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "daedalus-gate-bench-" }));
const root = join(base, "workspace");
await Deno.mkdir(join(root, "src"), { recursive: true });
await Deno.writeTextFile(join(root, "src", "a.ts"), "export const a = 1;\n".repeat(40));

const breakers = createCircuitBreakers();
for (let n = 0; n < 50; n++) {
  const admission = breakers.admit(`tool_${n}`);
  if (admission.admitted) breakers.record(admission, "success");
}
const configRules = [
  ...Array.from(
    { length: 8 },
    (_, n) => ({ tool: "read", pattern: `gen_${n}/**`, decision: "deny" }),
  ),
  { tool: "process_start", pattern: "git status", decision: "allow" },
  { tool: "write", pattern: "secrets/**", decision: "deny" },
];
const gate = createRunGate({ executionPolicy: "workspace_write", configRules, breakers });
for (let n = 0; n < 200; n++) {
  const call = { tool: "read", args: { path: `src/f_${n}.ts` }, readOnly: true };
  gate.loops.before(call);
  gate.loops.after(call, { content: `content ${n}\n`.repeat(50) });
}

const context: ToolContext = {
  threadId: "thread-1",
  runId: "run-1",
  itemId: "item-1",
  workspaceRoot: root,
  artifactsRoot: join(base, "artifacts"),
  executionPolicy: "workspace_write",
  protectedFiles: [],
  signal: new AbortController().signal,
  protectedValues: { find: () => false, redact: (text) => text },
  facts: { fileChanges: [], processes: [] },
  runMemo: createRunMemo(),
};
const withGate: ToolContext = { ...context, gate };
let serial = 0;
// Distinct arguments (a different limit each time, 1000 of them), so no call is a repeat.
const args = () => ({ path: "src/a.ts", limit: 1 + (serial++ % 1000) });

/** One read through `executeTool`, with the Run's gate or without it. */
const readOnce = (gated: boolean) =>
  executeTool(readTool, args(), {
    ...(gated ? withGate : context),
    facts: { fileChanges: [], processes: [] },
  });

// A refused or reused call would be cheap and flatter the gate: both sides must really read.
for (const gated of [true, false]) {
  const result = await readOnce(gated);
  if (result.isError || !result.content.includes("export const a = 1;")) {
    throw new Error(`the ${gated ? "gated" : "ungated"} read did not run: ${result.content}`);
  }
}

/**
 * The figure, printed once at load: rounds of calls with the gate and without it,
 * alternating which side goes first so that a shared machine's drift hits both, and the
 * median per-call time of each side. Means of `Deno.bench` below swing by more than the
 * difference on a loaded machine; paired medians do not.
 */
const ROUNDS = 30;
const CALLS_PER_ROUND = 200;
async function perCallMs(gated: boolean): Promise<number> {
  const started = performance.now();
  for (let n = 0; n < CALLS_PER_ROUND; n++) await readOnce(gated);
  return (performance.now() - started) / CALLS_PER_ROUND;
}
await perCallMs(true); // warm-up of both paths
await perCallMs(false);
const sides = { gated: [] as number[], ungated: [] as number[] };
for (let round = 0; round < ROUNDS; round++) {
  for (const gated of round % 2 === 0 ? [true, false] : [false, true]) {
    (gated ? sides.gated : sides.ungated).push(await perCallMs(gated));
  }
}
const median = (values: number[]) => values.toSorted((a, b) => a - b)[values.length >> 1]!;
const [gatedMs, ungatedMs] = [median(sides.gated), median(sides.ungated)];
const paired = median(sides.gated.map((ms, round) => ms - sides.ungated[round]!));
console.log(
  `gate cost per tool call (a small read through executeTool, ${ROUNDS} rounds of ` +
    `${CALLS_PER_ROUND} calls a side): with the gate ${gatedMs.toFixed(3)} ms, with its ` +
    `stages off ${ungatedMs.toFixed(3)} ms; paired difference ${paired.toFixed(3)} ms ` +
    `(${(gatedMs / ungatedMs).toFixed(2)}×; issue 14: ≤ 0.2 ms)`,
);

Deno.bench("read through the whole gate", { group: "read", baseline: false }, async () => {
  await executeTool(readTool, args(), { ...withGate, facts: { fileChanges: [], processes: [] } });
});
Deno.bench("read with the gate's stages off", { group: "read", baseline: true }, async () => {
  await executeTool(readTool, args(), { ...context, facts: { fileChanges: [], processes: [] } });
});
Deno.bench("the gate alone: admitCall + finish", { group: "gate" }, async () => {
  const admission = await admitCall(readTool, args(), withGate);
  if (admission.admitted) admission.finish({ content: "export const a = 1;\n" });
});

globalThis.addEventListener("unload", () => Deno.removeSync(base, { recursive: true }));
