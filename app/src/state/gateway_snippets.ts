/**
 * Example calls for one app key, as Settings › Gateway offers them to copy: `curl` for the
 * Dify-compatible streaming chat and for AG-UI, and the two client libraries the gateway
 * is tested with (dify-client 2.3.2 `ChatClient`, @ag-ui/client 1.0 `HttpAgent`), with the
 * calls as those packages really take them.
 *
 * @module
 */
import type { MessageKey } from "../i18n/en.ts";

/** Where the runtime serves the Dify-compatible API (its default prefix). */
export const DIFY_PATH = "/dify/v1";
/** Where the runtime serves AG-UI. */
export const AG_UI_PATH = "/ag-ui";
/** The environment variable the examples read a listed key from (its secret is not kept). */
export const KEY_VARIABLE = "DAEDALUS_APP_KEY";

/** One example. */
export interface GatewaySnippet {
  id: "difyCurl" | "agUiCurl" | "difyClient" | "httpAgent";
  labelKey: MessageKey;
  text: string;
}

/** Quotes a value for a POSIX shell's single quotes. */
function shellQuoted(text: string): string {
  return `'${text.replaceAll("'", `'"'"'`)}'`;
}

/**
 * The examples for a key.
 *
 * @param origin the runtime's origin as the browser sees it (`location.origin`)
 * @param key the key itself (right after it was made), or null to read it from
 *   {@linkcode KEY_VARIABLE}
 * @returns the four examples
 */
export function gatewaySnippets(origin: string, key: string | null): GatewaySnippet[] {
  const base = origin.replace(/\/+$/, "");
  const shellKey = key === null ? `"Authorization: Bearer $${KEY_VARIABLE}"` : shellQuoted(
    `Authorization: Bearer ${key}`,
  );
  const jsKey = key === null ? `process.env.${KEY_VARIABLE}` : JSON.stringify(key);
  const jsBearer = key === null ? `\`Bearer \${process.env.${KEY_VARIABLE}}\`` : JSON.stringify(
    `Bearer ${key}`,
  );
  const difyBody = { inputs: {}, query: "Hello", user: "me", response_mode: "streaming" };
  const agUiBody = {
    threadId: "thread-1",
    runId: "run-1",
    messages: [{ id: "m1", role: "user", content: "Hello" }],
    tools: [],
    context: [],
    state: {},
    forwardedProps: {},
  };
  return [
    {
      id: "difyCurl",
      labelKey: "gateway.snippet.difyCurl",
      text: [
        `curl -N -X POST ${shellQuoted(`${base}${DIFY_PATH}/chat-messages`)} \\`,
        `  -H ${shellKey} \\`,
        `  -H 'Content-Type: application/json' \\`,
        `  -d ${shellQuoted(JSON.stringify(difyBody))}`,
      ].join("\n"),
    },
    {
      id: "agUiCurl",
      labelKey: "gateway.snippet.agUiCurl",
      text: [
        `curl -N -X POST ${shellQuoted(`${base}${AG_UI_PATH}`)} \\`,
        `  -H ${shellKey} \\`,
        `  -H 'Content-Type: application/json' \\`,
        `  -H 'Accept: text/event-stream' \\`,
        `  -d ${shellQuoted(JSON.stringify(agUiBody))}`,
      ].join("\n"),
    },
    {
      id: "difyClient",
      labelKey: "gateway.snippet.difyClient",
      text: [
        `import { ChatClient } from "dify-client";`,
        ``,
        `const client = new ChatClient(${jsKey}, ${JSON.stringify(`${base}${DIFY_PATH}`)});`,
        `// inputs, query, user, stream (false: one JSON answer), conversation_id`,
        `const first = await client.createChatMessage({}, "Hello", "me", false);`,
        `console.log(first.data.answer);`,
        `const next = await client.createChatMessage({}, "And then?", "me", false,`,
        `  first.data.conversation_id);`,
        `console.log(next.data.answer);`,
      ].join("\n"),
    },
    {
      id: "httpAgent",
      labelKey: "gateway.snippet.httpAgent",
      text: [
        `import { HttpAgent } from "@ag-ui/client";`,
        ``,
        `const agent = new HttpAgent({`,
        `  url: ${JSON.stringify(`${base}${AG_UI_PATH}`)},`,
        `  headers: { Authorization: ${jsBearer} },`,
        `});`,
        `agent.addMessage({ id: crypto.randomUUID(), role: "user", content: "Hello" });`,
        `const { newMessages } = await agent.runAgent({}, {`,
        `  onRunErrorEvent: ({ event }) => console.error(event.message),`,
        `});`,
        `console.log(newMessages.at(-1)?.content);`,
      ].join("\n"),
    },
  ];
}
