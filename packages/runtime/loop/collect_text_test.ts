import assert from "node:assert/strict";
import { createScriptedProvider } from "../providers/scripted.ts";
import { ProtectedValues, REDACTED_MARKER } from "../security/protected_values.ts";
import { collectText } from "./collect_text.ts";

const KEY = "sk-canary-77665544332211aa";
const request = { modelId: "scripted-model", messages: [], tools: [], reasoningEffort: null };

Deno.test("a tool-less answer (title, summary, completion check) comes back redacted whole", async () => {
  const protectedValues = new ProtectedValues();
  protectedValues.register(KEY);
  const provider = createScriptedProvider({
    script: [{ text: ["Title: ", KEY.slice(0, 6), KEY.slice(6, 14), KEY.slice(14)] }],
  });
  const result = await collectText(
    provider,
    request,
    new AbortController().signal,
    protectedValues,
  );
  assert.equal(result.text, `Title: ${REDACTED_MARKER}`);
});

Deno.test("without protected values the answer is unchanged", async () => {
  const provider = createScriptedProvider({ script: [{ text: ["a", "b"] }] });
  const result = await collectText(provider, request, new AbortController().signal);
  assert.equal(result.text, "ab");
});
