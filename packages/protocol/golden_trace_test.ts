import assert from "node:assert/strict";
import { GoldenTraceError, validateGoldenTrace } from "./mod.ts";

const traceUrl = new URL("../../protocol/golden-trace.json", import.meta.url);
const load = async () => JSON.parse(await Deno.readTextFile(traceUrl));

Deno.test("the golden trace replays clean against the schemas", async () => {
  const trace = validateGoldenTrace(await load());
  const names = trace.cases.map((c) => c.name);
  for (
    const required of [
      "initialize.success",
      "initialize.unsupported_version",
      "initialize.twice",
      "thread.create",
      "turn.start.completed_run",
      "run.cancel",
    ]
  ) assert.ok(names.includes(required), `missing case ${required}`);
});

Deno.test("a corrupted event payload fails naming the case, the step and the field", async () => {
  const trace = await load();
  const goldenCase = trace.cases.find((c: { name: string }) =>
    c.name === "turn.start.completed_run"
  );
  const index = goldenCase.steps.findIndex((s: { message: { params?: { type?: string } } }) =>
    s.message.params?.type === "run.settled"
  );
  goldenCase.steps[index].message.params.payload.status = "finished";
  assert.throws(() => validateGoldenTrace(trace), (error: unknown) => {
    assert.ok(error instanceof GoldenTraceError);
    assert.equal(error.caseName, "turn.start.completed_run");
    assert.equal(error.step, index);
    assert.match(error.message, /turn\.start\.completed_run/);
    assert.match(error.message, /payload\.status/);
    return true;
  });
});

Deno.test("a corrupted result fails naming the method and the field", async () => {
  const trace = await load();
  const goldenCase = trace.cases.find((c: { name: string }) => c.name === "thread.create");
  const response = goldenCase.steps.find((s: { message: { id?: number } }) =>
    s.message.id === 2 && "result" in s.message
  );
  response.message.result.thread.defaultBranchId = "branch_nothex";
  assert.throws(
    () => validateGoldenTrace(trace),
    /case "thread\.create".*thread\.create.*thread\.defaultBranchId/,
  );
});

Deno.test("a broken mirror and an out-of-order seq are caught", async () => {
  const mirror = await load();
  const steps = mirror.cases.find((c: { name: string }) => c.name === "run.cancel").steps;
  const event = steps.find((s: { message: { method?: string; params?: { itemId?: unknown } } }) =>
    s.message.method === "event" && s.message.params?.itemId
  );
  delete event.message.params.payload.itemId;
  assert.throws(() => validateGoldenTrace(mirror), /payload\.itemId/);

  const order = await load();
  const events = order.cases.find((c: { name: string }) => c.name === "run.cancel").steps
    .filter((s: { message: { method?: string } }) => s.message.method === "event");
  events[1].message.params.seq = events[0].message.params.seq;
  assert.throws(() => validateGoldenTrace(order), /does not follow/);
});

Deno.test("a request with bad params fails unless marked invalid", async () => {
  const trace = await load();
  const steps = trace.cases.find((c: { name: string }) => c.name === "params.unknown_field").steps;
  const bad = steps.find((s: { invalid?: boolean }) => s.invalid);
  delete bad.invalid;
  assert.throws(() => validateGoldenTrace(trace), /params of thread\.list.*verbose/);
});
