import assert from "node:assert/strict";
import { RunAgentInputSchema } from "@ag-ui/core/schemas";
import { gatewaySnippets, KEY_VARIABLE } from "./gateway_snippets.ts";

const KEY = `app-${"a1".repeat(20)}`;

/** The single-quoted `-d` body of a curl example, unquoted. */
function curlBody(text: string): unknown {
  const quoted = text.match(/-d '((?:[^']|'"'"')*)'$/)?.[1];
  assert.ok(quoted, `no -d body in\n${text}`);
  return JSON.parse(quoted.replaceAll(`'"'"'`, "'"));
}

Deno.test("gateway snippets: curl posts Dify's and AG-UI's bodies with the key to the right paths", () => {
  const [dify, agUi] = gatewaySnippets("http://127.0.0.1:7420/", KEY);
  assert.match(dify.text, /^curl -N -X POST 'http:\/\/127\.0\.0\.1:7420\/dify\/v1\/chat-messages'/);
  assert.ok(dify.text.includes(`-H 'Authorization: Bearer ${KEY}'`), dify.text);
  assert.deepEqual(curlBody(dify.text), {
    inputs: {},
    query: "Hello",
    user: "me",
    response_mode: "streaming",
  });
  assert.match(agUi.text, /^curl -N -X POST 'http:\/\/127\.0\.0\.1:7420\/ag-ui'/);
  assert.ok(agUi.text.includes("-H 'Accept: text/event-stream'"), agUi.text);
  const input = RunAgentInputSchema.safeParse(curlBody(agUi.text));
  assert.ok(input.success, `the AG-UI body is not a RunAgentInput: ${input.error}`);
});

Deno.test("gateway snippets: the clients are called as dify-client and HttpAgent take them", () => {
  const [, , difyClient, httpAgent] = gatewaySnippets("https://box.example", KEY);
  assert.ok(difyClient.text.includes(`import { ChatClient } from "dify-client";`));
  assert.ok(
    difyClient.text.includes(`new ChatClient("${KEY}", "https://box.example/dify/v1");`),
    difyClient.text,
  );
  assert.match(difyClient.text, /createChatMessage\(\{\}, "Hello", "me", false\)/);
  assert.ok(httpAgent.text.includes(`import { HttpAgent } from "@ag-ui/client";`));
  assert.ok(httpAgent.text.includes(`url: "https://box.example/ag-ui",`), httpAgent.text);
  assert.ok(httpAgent.text.includes(`headers: { Authorization: "Bearer ${KEY}" },`));
  assert.match(httpAgent.text, /agent\.runAgent\(/);
});

Deno.test("gateway snippets: without the key they read it from the environment", () => {
  const texts = gatewaySnippets("http://127.0.0.1:7420", null).map((s) => s.text);
  assert.ok(texts[0].includes(`-H "Authorization: Bearer $${KEY_VARIABLE}"`), texts[0]);
  assert.ok(texts[1].includes(`$${KEY_VARIABLE}`), texts[1]);
  assert.ok(texts[2].includes(`new ChatClient(process.env.${KEY_VARIABLE},`), texts[2]);
  assert.ok(texts[3].includes(`Bearer \${process.env.${KEY_VARIABLE}}`), texts[3]);
  for (const text of texts) assert.ok(!text.includes("app-"), `a key leaked into\n${text}`);
});

Deno.test("gateway snippets: a single quote in the origin cannot break out of the shell quotes", () => {
  const [dify] = gatewaySnippets("http://it's.example", KEY);
  assert.ok(dify.text.includes(`'http://it'"'"'s.example/dify/v1/chat-messages'`), dify.text);
});
