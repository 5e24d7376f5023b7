/**
 * `createServer(invokeAgent, options)`: any agent function served as the same
 * Dify-compatible chat API and AG-UI endpoint the runtime serves (seed 002's "the server
 * only receives invoke_agent"). `invokeAgent` is an async generator that yields strings
 * (answer text) or canonical events; a `done` is added when it returns, an `error` when it
 * throws. Dify's stop and a disconnected client abort its `signal`. The result is a Hono
 * app: serve it (`Deno.serve(server.fetch)`) or mount it (`app.route("/agent", server)`).
 *
 * Dify's conversations live in memory, per `user`, bounded (limits.ts:
 * `CREATE_SERVER_CONVERSATIONS_MAX` conversations, the least recently used dropped first,
 * `CREATE_SERVER_MESSAGES_PER_CONVERSATION_MAX` messages each, the oldest dropped first).
 * With `apiKeys`, every endpoint asks `Authorization: Bearer <key>` and refuses others
 * with 401 (Dify's `{code, message, status}` under the Dify prefix, `{error, code}` on
 * AG-UI); without, there are no keys, so put the app behind your own auth.
 *
 * @example
 * ```ts ignore
 * import { createServer } from "@daedalus/runtime";
 *
 * const server = createServer(async function* ({ query }) {
 *   yield `You said: ${query}`;
 * }, { apiKeys: ["app-secret"] });
 * Deno.serve({ port: 8000 }, server.fetch); // Dify at /v1, AG-UI at /ag-ui
 * ```
 *
 * @module
 */
import { Hono } from "hono";
import type { Context, MiddlewareHandler } from "hono";
import {
  bearerKey,
  difyRefusal,
  type GatewayRefusal,
  unauthorized,
  UNAUTHORIZED_MESSAGES,
} from "./key_auth.ts";
import type { InvokeAgent } from "./create_server_agent.ts";
import {
  type ApiKeyCheck,
  type CreateServerOptions,
  CreateServerOptionsError,
  resolveServerOptions,
} from "./create_server_options.ts";
import { createServerDifyRoutes } from "./create_server_dify.ts";
import { createServerAgUiRoutes } from "./create_server_ag_ui.ts";
import { MemoryConversations } from "./create_server_memory.ts";

export type { AgentMessage, AgentRequest, InvokeAgent } from "./create_server_agent.ts";
export {
  type ApiKeyCheck,
  type CreateServerOptions,
  CreateServerOptionsError,
} from "./create_server_options.ts";
export type { DifyParameters } from "./dify_parameters.ts";

/** What {@linkcode createServer} returns: a Hono app (its `fetch` serves it). */
export type AgentServer = Hono;

/**
 * Serves an agent function as Dify (`<difyPrefix>/chat-messages`, its stop, `/parameters`,
 * `/conversations`, `/messages`, `DELETE /conversations/:id`) and AG-UI (`<agUiPath>`,
 * `<agUiPath>/:agent`).
 *
 * @param invokeAgent the agent
 * @param options keys, paths, the `/parameters` answer
 * @returns the server, a Hono app
 * @throws {CreateServerOptionsError} for a bad option or an `invokeAgent` that is not a function
 */
export function createServer(
  invokeAgent: InvokeAgent,
  options: CreateServerOptions = {},
): AgentServer {
  if (typeof invokeAgent !== "function") {
    throw new CreateServerOptionsError("createServer: invokeAgent must be a function");
  }
  const resolved = resolveServerOptions(options);
  const dify = new Hono();
  const agUi = new Hono();
  if (resolved.checkKey) {
    dify.use("*", keyCheck(resolved.checkKey, difyRefusal));
    agUi.use("*", keyCheck(resolved.checkKey, agUiRefusal));
  }
  dify.route(
    "/",
    createServerDifyRoutes({
      invokeAgent,
      conversations: new MemoryConversations(),
      parameters: resolved.parameters,
    }),
  );
  agUi.route("/", createServerAgUiRoutes(invokeAgent));
  const app = new Hono();
  app.route(resolved.difyPrefix, dify);
  app.route(resolved.agUiPath, agUi);
  return app;
}

/**
 * A refusal in AG-UI's terms, the body the runtime's AG-UI route sends (`agUiRefusal` of
 * ag_ui_routes.ts, not imported: that module brings the runtime's store, which a library
 * server does not need).
 */
function agUiRefusal(c: Context, refusal: GatewayRefusal): Response {
  return c.json({ error: refusal.message, code: refusal.code }, refusal.status);
}

/** Refuses a request whose key the check does not accept (a check that throws refuses). */
function keyCheck(
  check: ApiKeyCheck,
  refuse: (c: Context, refusal: GatewayRefusal) => Response,
): MiddlewareHandler {
  return async (c, next) => {
    const presented = bearerKey(c.req.header("Authorization") ?? null);
    if (!presented.ok) return refuse(c, presented.refusal);
    const accepted = await Promise.resolve().then(() => check(presented.key)).catch(() => false);
    if (accepted !== true) return refuse(c, unauthorized(UNAUTHORIZED_MESSAGES.invalid).refusal);
    await next();
  };
}
