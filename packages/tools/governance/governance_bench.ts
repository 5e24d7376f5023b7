/**
 * What the loop and breaker stages will add to one tool call (issue 14: the whole gate
 * ≤ 0.2 ms per call): `before` + `after` on a Run that has seen 200 calls, `admit` +
 * `record` among 50 breakers. Run with `deno task bench`.
 */
import { createCircuitBreakers } from "./circuit_breaker.ts";
import { createLoopDetector } from "./loop_detector.ts";

const detector = createLoopDetector();
for (let n = 0; n < 200; n++) {
  const call = { tool: "read", args: { path: `src/file_${n}.ts`, limit: 200 }, readOnly: true };
  detector.before(call);
  detector.after(call, { content: `content of file ${n}\n`.repeat(50) });
}
const resultOf = (bytes: number) => ({ content: "x".repeat(bytes) });
const small = resultOf(1024);
const large = resultOf(64 * 1024);
let serial = 0;

Deno.bench("loop: before + after, a new read with a 1 KiB result", { group: "loop" }, () => {
  const call = { tool: "read", args: { path: `new_${serial++}.ts`, offset: 1 }, readOnly: true };
  detector.before(call);
  detector.after(call, small);
});
Deno.bench("loop: before + after, a read with a 64 KiB result", { group: "loop" }, () => {
  const call = { tool: "read", args: { path: `big_${serial++}.ts` }, readOnly: true };
  detector.before(call);
  detector.after(call, large);
});

const breakers = createCircuitBreakers();
for (let n = 0; n < 50; n++) {
  const admission = breakers.admit(`tool_${n}`);
  if (admission.admitted) breakers.record(admission, "success");
}

Deno.bench("breakers: admit + record among 50 keys", { group: "breakers" }, () => {
  const admission = breakers.admit(`tool_${serial++ % 50}`);
  if (admission.admitted) breakers.record(admission, "success");
});
