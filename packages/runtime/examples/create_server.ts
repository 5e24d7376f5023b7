/**
 * A toy agent served with `createServer`: it "looks up" the time with a tool, then answers.
 * Run it from the repository with
 *
 *     deno run --allow-net=127.0.0.1 packages/runtime/examples/create_server.ts [port]
 *
 * (port 8000 by default) and talk to it with any Dify or AG-UI client, key `app-change-me`:
 *
 *     curl -N -H "Authorization: Bearer app-change-me" -H "Content-Type: application/json" \
 *       -d '{"inputs":{},"query":"hello","user":"me","response_mode":"streaming"}' \
 *       http://127.0.0.1:8000/v1/chat-messages
 *
 * @module
 */
import { type AgentRequest, createServer } from "@daedalus/runtime/create-server";

/** The key the example accepts: pick your own (or a function checking a database). */
export const EXAMPLE_API_KEY = "app-change-me";

/**
 * The agent: one tool call (its start with the arguments, its end with the result), then
 * the answer in pieces, stopping early when the client stops it.
 *
 * @param request the query, the conversation so far, the abort signal
 * @yields canonical events and answer text
 */
export async function* exampleAgent(request: AgentRequest) {
  const toolCallId = crypto.randomUUID();
  yield { type: "tool_call_start" as const, toolCallId, name: "clock", argsDelta: "{}" };
  const now = new Date().toISOString();
  yield { type: "tool_call_end" as const, toolCallId, result: now, isError: false };
  for (const word of `You said "${request.query}" at ${now}.`.split(" ")) {
    if (request.signal.aborted) return;
    yield `${word} `;
  }
  yield `(${request.messages.length / 2} earlier messages.)`;
}

/** The server: Dify at /v1, AG-UI at /ag-ui and /ag-ui/:agent. */
export const server = createServer(exampleAgent, {
  apiKeys: [EXAMPLE_API_KEY],
  parameters: { opening_statement: "Ask me anything; I will tell you the time." },
});

if (import.meta.main) {
  const port = Number(Deno.args[0] ?? 8000);
  Deno.serve({ hostname: "127.0.0.1", port }, server.fetch);
}
