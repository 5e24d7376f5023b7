import assert from "node:assert/strict";
import { RpcError as ProtocolRpcError } from "@daedalus/protocol";
import * as client from "./mod.ts";

Deno.test("the front door exports the client, the HTTP client and the protocol's error class", () => {
  assert.deepEqual(
    Object.keys(client).sort(),
    [
      "ATTACHMENTS_MAX_COUNT",
      "ATTACHMENT_MAX_BYTES",
      "ClientError",
      "GATEWAY_KEY_NAME_MAX_CHARS",
      "GATEWAY_KEY_ORIGINS_MAX_COUNT",
      "GATEWAY_KEY_TOOLS_MAX_COUNT",
      "IDENTIFIER_MAX_CHARS",
      "RECONNECT_DELAYS_MS",
      "RPC_ERROR_CODES",
      "RpcError",
      "SEARCH_MAX_LIMIT",
      "SEARCH_QUERY_MAX_CHARS",
      "TOOL_IDS",
      "connect",
      "createClient",
      "createHttpClient",
      "httpRpcUrl",
      "mcpRuleTarget",
      "uploadAttachment",
      "uploadUrl",
      "webSocketUrl",
    ],
  );
  assert.equal(client.RpcError, ProtocolRpcError, "instanceof works across both imports");
});
