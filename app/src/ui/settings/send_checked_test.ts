import assert from "node:assert/strict";
import { signal } from "@preact/signals";
import type { FieldProblem } from "../../state/provider_form.ts";
import { type FormSignals, sendChecked } from "./send_checked.ts";

function form(): FormSignals<"name"> {
  return {
    problems: signal<FieldProblem<"name">[]>([]),
    failure: signal<string | null>("an earlier failure"),
    busy: signal(false),
  };
}

Deno.test("sendChecked: problems are shown and nothing is sent", async () => {
  const state = form();
  let sent = 0;
  const problem: FieldProblem<"name"> = { field: "name", key: "settings.problem.displayName" };
  const outcome = await sendChecked(state, { ok: false, problems: [problem] }, () => {
    sent++;
    return Promise.resolve(null);
  });
  assert.equal(outcome, null);
  assert.equal(sent, 0);
  assert.deepEqual(state.problems.value, [problem]);
  assert.equal(state.failure.value, null, "the earlier failure line is cleared");
});

Deno.test("sendChecked: busy while sending; a refusal becomes the failure line", async () => {
  const state = form();
  state.problems.value = [{ field: "name", key: "settings.problem.displayName" }];
  let busyWhileSending = false;
  const outcome = await sendChecked(state, { ok: true, params: { name: "x" } }, () => {
    busyWhileSending = state.busy.value;
    return Promise.resolve("Refused by the runtime");
  });
  assert.equal(outcome, null);
  assert.ok(busyWhileSending, "the form is busy while the call runs");
  assert.equal(state.busy.value, false);
  assert.deepEqual(state.problems.value, []);
  assert.equal(state.failure.value, "Refused by the runtime");
});

Deno.test("sendChecked: what the call resolved to is returned (null for a plain save)", async () => {
  const state = form();
  const saved = await sendChecked(state, { ok: true, params: 1 }, () => Promise.resolve(null));
  assert.deepEqual(saved, { value: null });
  const found = await sendChecked(state, { ok: true, params: 1 }, (n) => Promise.resolve([n, 2]));
  assert.deepEqual(found, { value: [1, 2] });
  assert.equal(state.failure.value, null);
});
