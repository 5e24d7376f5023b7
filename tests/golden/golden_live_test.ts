/**
 * The golden trace replayed against the live server: every case runs again over a
 * real WebSocket, every message the server sends must validate against the
 * protocol, and the sequence of results, errors (code + reasonCode) and event types
 * must be the one recorded in protocol/golden-trace.json.
 */
import assert from "node:assert/strict";
import { validateGoldenCase, validateGoldenTrace } from "@daedalus/protocol";
import { caseShape, recordLiveCases } from "./live_runtime.ts";

Deno.test("the live server answers every golden case as recorded", async () => {
  const trace = validateGoldenTrace(
    JSON.parse(
      await Deno.readTextFile(new URL("../../protocol/golden-trace.json", import.meta.url)),
    ),
  );
  const live = await recordLiveCases();
  assert.deepEqual(live.map((c) => c.name), trace.cases.map((c) => c.name), "case list differs");
  for (const [index, recorded] of live.entries()) {
    validateGoldenCase(recorded);
    const expected = trace.cases[index]!;
    assert.deepEqual(
      caseShape(recorded),
      caseShape(expected),
      `case ${recorded.name} changed shape`,
    );
  }
});
