import assert from "node:assert/strict";
import { ProtectedValues, REDACTED_MARKER } from "../security/protected_values.ts";
import { redactedStream, redactFinish, redactToolCall } from "./redacted_stream.ts";

const KEY = "sk-canary-a1b2c3d4e5f60718";

function protect(): { protectedValues: ProtectedValues } {
  const protectedValues = new ProtectedValues();
  protectedValues.register(KEY);
  return { protectedValues };
}

Deno.test("a redacted stream writes a split key as one marker and flushes the held end", () => {
  const written: string[] = [];
  const stream = redactedStream(protect(), new AbortController().signal, (d) => written.push(d));
  for (const piece of ["key ", KEY.slice(0, 5), KEY.slice(5, 12), KEY.slice(12), " ok sk-"]) {
    stream.push(piece);
  }
  stream.flush();
  assert.equal(written.join(""), `key ${REDACTED_MARKER} ok sk-`);
});

Deno.test("a cancelled stream drops the held-back end instead of writing after the cancel", () => {
  const written: string[] = [];
  const controller = new AbortController();
  const stream = redactedStream(protect(), controller.signal, (d) => written.push(d));
  stream.push("partial answer sk-can");
  controller.abort();
  stream.flush();
  assert.equal(written.join(""), "partial answer ");
});

Deno.test("tool calls and finish ids are redacted whole", () => {
  const deps = protect();
  const call = redactToolCall(deps, {
    type: "tool_call",
    id: `call_${KEY}`,
    name: `read_${KEY}`,
    arguments: `{"path":"${KEY}.txt"}`,
  });
  assert.deepEqual(call, {
    type: "tool_call",
    id: `call_${REDACTED_MARKER}`,
    name: `read_${REDACTED_MARKER}`,
    arguments: `{"path":"${REDACTED_MARKER}.txt"}`,
  });
  assert.deepEqual(JSON.parse(call.arguments), { path: `${REDACTED_MARKER}.txt` });
  assert.deepEqual(
    redactFinish(deps, { type: "finish", responseModelId: KEY, requestId: `req ${KEY}` }),
    { type: "finish", responseModelId: REDACTED_MARKER, requestId: `req ${REDACTED_MARKER}` },
  );
});
