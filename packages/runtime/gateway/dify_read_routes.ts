/**
 * Dify's read endpoints for a key's own conversations (WIRE.md §1): `GET /parameters`,
 * `GET /conversations`, `GET /messages`, and `DELETE /conversations/:id` (the thread is
 * archived, as Dify hides it). `user` comes in the query (the body for DELETE); a
 * conversation of another key or user, or the owner's own, is "Conversation Not Exists.".
 *
 * @module
 */
import { Hono } from "hono";
import { ATTACHMENTS_MAX_COUNT, type Item, type Thread, type Turn } from "@daedalus/protocol";
import { UPLOAD_BODY_MAX_BYTES } from "../server/limits.ts";
import type { Dispatcher } from "../server/dispatcher.ts";
import { gatewayCall } from "./gateway_calls.ts";
import type { GatewayEnv } from "./key_auth.ts";
import type { ConversationOwners } from "./conversation_owners.ts";
import { threadIdOfConversation, uuidOf } from "./conversation_ids.ts";
import { difyError, splitDifyTurnContent } from "./dify_request.ts";
import { difyMessagePage, type TurnPage } from "./dify_message_page.ts";
import { DIFY_DEFAULT_PARAMETERS } from "./dify_parameters.ts";

/** What {@linkcode difyReadRoutes} needs. */
export interface DifyReadRouteDeps {
  /** Runs thread.get, turn.list, thread.archive. */
  dispatcher: Dispatcher;
  /** Who owns each conversation. */
  owners: ConversationOwners;
}

/** Dify's default and largest page sizes. */
const PAGE_DEFAULT = 20;
const PAGE_MAX = 100;

/**
 * The read routes.
 *
 * @param deps dispatcher and owners
 * @returns a Hono app to mount behind `gatewayKeyAuth`, beside the chat routes
 */
export function difyReadRoutes(deps: DifyReadRouteDeps): Hono<GatewayEnv> {
  const call = gatewayCall(deps.dispatcher);
  const app = new Hono<GatewayEnv>();
  const seconds = (timestamp: string) => Math.floor(Date.parse(timestamp) / 1000);
  const limitOf = (raw: string | undefined) => {
    const limit = raw === undefined ? PAGE_DEFAULT : Number(raw);
    return Number.isInteger(limit) && limit >= 1 && limit <= PAGE_MAX ? limit : null;
  };

  app.get("/parameters", (c) =>
    c.json({
      ...DIFY_DEFAULT_PARAMETERS,
      // Images by upload only (dify_files.ts: the runtime fetches no URL); sizes in MB.
      file_upload: {
        image: {
          enabled: true,
          number_limits: ATTACHMENTS_MAX_COUNT,
          transfer_methods: ["local_file"],
        },
      },
      system_parameters: {
        image_file_size_limit: UPLOAD_BODY_MAX_BYTES / (1024 * 1024),
        file_size_limit: UPLOAD_BODY_MAX_BYTES / (1024 * 1024),
      },
    }));

  app.get("/conversations", async (c) => {
    const user = c.req.query("user");
    const limit = limitOf(c.req.query("limit"));
    if (!user) return c.json(difyError(400, "invalid_param", "Arg user must be provided."), 400);
    if (limit === null) return c.json(difyError(400, "invalid_param", "limit: 1 to 100"), 400);
    const owner = { keyId: c.get("gatewayKey").keyId, user };
    const threads: Thread[] = [];
    for (const threadId of deps.owners.threadsOf(owner)) {
      const { thread } = await call<{ thread: Thread }>("thread.get", { threadId })
        .catch(() => ({ thread: null as unknown as Thread }));
      if (thread && thread.archivedAt === null) threads.push(thread);
    }
    threads.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id));
    const lastId = c.req.query("last_id");
    const from = lastId ? threads.findIndex((t) => uuidOf(t.id) === lastId) + 1 : 0;
    const page = threads.slice(from, from + limit);
    return c.json({
      limit,
      has_more: from + limit < threads.length,
      data: page.map((thread) => ({
        id: uuidOf(thread.id),
        name: thread.title ?? "",
        inputs: {},
        status: "normal",
        introduction: "",
        created_at: seconds(thread.createdAt),
        updated_at: seconds(thread.updatedAt),
      })),
    });
  });

  app.get("/messages", async (c) => {
    const user = c.req.query("user");
    const limit = limitOf(c.req.query("limit"));
    if (!user) return c.json(difyError(400, "invalid_param", "Arg user must be provided."), 400);
    if (limit === null) return c.json(difyError(400, "invalid_param", "limit: 1 to 100"), 400);
    const conversationId = c.req.query("conversation_id") ?? "";
    const threadId = threadIdOfConversation(conversationId);
    if (
      threadId === null || !deps.owners.owns(threadId, { keyId: c.get("gatewayKey").keyId, user })
    ) {
      return c.json(difyError(404, "not_found", "Conversation Not Exists."), 404);
    }
    const page = await difyMessagePage({
      readTurns: (cursor, readLimit) =>
        call<TurnPage<Turn>>("turn.list", {
          threadId,
          cursor,
          limit: readLimit,
          direction: "backward",
        }),
      toMessage: (turn: Turn) =>
        turn.runs.length > 0 ? difyMessage(turn, conversationId, seconds) : null,
      limit,
      firstId: c.req.query("first_id") || undefined,
      // One more than the page tells whether older messages remain.
      readLimit: Math.min(PAGE_MAX, limit + 1),
    });
    if (page === "first_not_found") {
      return c.json(difyError(404, "not_found", "First Message Not Exists."), 404);
    }
    return c.json({ limit, has_more: page.hasMore, data: page.data });
  });

  app.delete("/conversations/:conversation_id", async (c) => {
    const body = await c.req.json().catch(() => undefined) as { user?: unknown } | undefined;
    const user = typeof body?.user === "string" ? body.user : c.req.query("user");
    if (!user) return c.json(difyError(400, "invalid_param", "Arg user must be provided."), 400);
    const threadId = threadIdOfConversation(c.req.param("conversation_id"));
    if (
      threadId === null || !deps.owners.owns(threadId, { keyId: c.get("gatewayKey").keyId, user })
    ) {
      return c.json(difyError(404, "not_found", "Conversation Not Exists."), 404);
    }
    await call("thread.archive", { threadId });
    return c.json({ result: "success" });
  });

  return app;
}

/** One turn as a Dify message: the user's query, the last run's answer and its tool calls. */
function difyMessage(turn: Turn, conversationId: string, seconds: (t: string) => number) {
  const run = turn.runs.at(-1)!;
  const items: Item[] = turn.runs.flatMap((r) => r.items);
  const { inputs, query } = splitDifyTurnContent(
    items.find((i) => i.kind === "message" && i.role === "user")?.content ?? "",
  );
  const answer = run.items.filter((i) => i.kind === "message" && i.role === "assistant")
    .map((i) => i.content).join("");
  const results = new Map(
    items.filter((i) => i.kind === "tool_result").map((i) => [String(i.data.toolCallItemId), i]),
  );
  const messageId = uuidOf(run.id);
  const thoughts = items.filter((i) => i.kind === "tool_call").map((call, index) => {
    const tool = String(call.data.toolId ?? "tool");
    return {
      id: call.id,
      chain_id: null,
      message_id: messageId,
      position: index + 1,
      thought: "",
      tool,
      tool_input: JSON.stringify({ [tool]: call.data.arguments ?? {} }),
      created_at: seconds(call.createdAt),
      observation: results.get(call.id)?.content ?? "",
      message_files: [],
    };
  });
  return {
    id: messageId,
    conversation_id: conversationId,
    inputs,
    query,
    answer,
    message_files: [],
    feedback: null,
    retriever_resources: [],
    agent_thoughts: thoughts,
    created_at: seconds(turn.createdAt),
  };
}
