/**
 * `createServer`'s Dify-compatible API (WIRE.md §1): `POST /chat-messages` (streaming and
 * blocking), `POST /chat-messages/:task_id/stop`, `GET /parameters`, `GET /conversations`,
 * `GET /messages` and `DELETE /conversations/:id`, over the in-memory conversations. Each
 * conversation belongs to the `user` that made it: another user's id is "Conversation Not
 * Exists.", as an unknown one. The bodies, the stream and its encoding are the runtime
 * gateway's own (dify_request.ts, dify_sse.ts, dify_encoder.ts).
 *
 * @module
 */
import { Hono } from "hono";
import type { CanonicalEvent } from "@daedalus/protocol";
import { DifyEncoder, type DifyObject } from "./dify_encoder.ts";
import { difySseStream } from "./dify_sse.ts";
import { difyError, parseDifyChatRequest } from "./dify_request.ts";
import type { DifyParameters } from "./dify_parameters.ts";
import { agentEvents, type InvokeAgent } from "./create_server_agent.ts";
import type {
  ConversationSort,
  DifyAgentThought,
  MemoryConversations,
  StoredMessage,
} from "./create_server_memory.ts";
import { DIFY_PAGE_DEFAULT, DIFY_PAGE_MAX } from "./limits.ts";

/** What {@linkcode createServerDifyRoutes} needs. */
export interface CreateServerDifyDeps {
  /** The agent. */
  invokeAgent: InvokeAgent;
  /** The conversations. */
  conversations: MemoryConversations;
  /** `GET /parameters`'s answer. */
  parameters: DifyParameters;
  /** The time (epoch ms); default `Date.now`. */
  now?: () => number;
}

const SORTS: readonly ConversationSort[] = [
  "created_at",
  "-created_at",
  "updated_at",
  "-updated_at",
];

/**
 * The Dify routes.
 *
 * @param deps agent, conversations, parameters
 * @returns a Hono app to mount at the Dify prefix (behind the key check, if any)
 */
export function createServerDifyRoutes(deps: CreateServerDifyDeps): Hono {
  const now = deps.now ?? Date.now;
  const seconds = () => Math.floor(now() / 1000);
  const { conversations } = deps;
  const tasks = new Map<string, { user: string; controller: AbortController }>();
  const app = new Hono();
  const notFound = () => difyError(404, "not_found", "Conversation Not Exists.");
  const invalid = (message: string) => difyError(400, "invalid_param", message);
  const limitOf = (raw: string | undefined) => {
    const limit = raw === undefined || raw === "" ? DIFY_PAGE_DEFAULT : Number(raw);
    return Number.isInteger(limit) && limit >= 1 && limit <= DIFY_PAGE_MAX ? limit : null;
  };

  app.post("/chat-messages", async (c) => {
    const parsed = parseDifyChatRequest(await c.req.json().catch(() => undefined));
    if (!parsed.ok) return c.json(parsed.error, 400);
    const { request } = parsed;
    const known = request.conversationId === null
      ? null
      : conversations.get(request.conversationId, request.user);
    if (request.conversationId !== null && known === null) return c.json(notFound(), 404);
    const startedAt = now();
    const conversation = known ??
      conversations.create(
        crypto.randomUUID(),
        request.user,
        request.query,
        request.inputs,
        Math.floor(startedAt / 1000),
      );
    const taskId = crypto.randomUUID();
    const messageId = crypto.randomUUID();
    const controller = new AbortController();
    tasks.set(taskId, { user: request.user, controller });
    const ids = {
      taskId,
      messageId,
      conversationId: conversation.id,
      createdAt: Math.floor(startedAt / 1000),
    };
    const encoder = new DifyEncoder(ids, startedAt);
    // A second encoder sees the same events, so the stored agent_thoughts are exactly the
    // upserted thoughts the stream sent.
    const thoughts = new ThoughtRecorder(new DifyEncoder(ids, startedAt), messageId, seconds);
    const agentRequest = {
      query: request.query,
      conversationId: conversation.id,
      messages: conversations.history(conversation),
      inputs: request.inputs,
      signal: controller.signal,
      user: request.user,
    };
    const events = thoughts.watch(
      agentEvents(deps.invokeAgent, agentRequest, messageId, ({ answer }) => {
        tasks.delete(taskId);
        const message: StoredMessage = {
          id: messageId,
          query: request.query,
          answer,
          inputs: request.inputs,
          agentThoughts: thoughts.thoughts(),
          createdAt: ids.createdAt,
        };
        conversations.addMessage(conversation.id, message, seconds());
      }),
    );
    if (request.responseMode === "streaming") {
      return new Response(
        difySseStream(events, encoder, { now, onClientGone: () => controller.abort() }),
        { headers: { "Content-Type": "text/event-stream; charset=utf-8" } },
      );
    }
    for await (const event of events) {
      if (event.type === "error" && !event.recoverable) {
        return c.json(difyError(500, "internal_server_error", event.message), 500);
      }
      encoder.encode(event, now());
    }
    return c.json(encoder.blockingResponse(now()));
  });

  app.post("/chat-messages/:task_id/stop", async (c) => {
    const body = await c.req.json().catch(() => undefined) as { user?: unknown } | undefined;
    if (typeof body?.user !== "string" || body.user === "") {
      return c.json(invalid("Arg user must be provided."), 400);
    }
    const task = tasks.get(c.req.param("task_id"));
    if (!task || task.user !== body.user) {
      return c.json(difyError(404, "not_found", "Task Not Exists."), 404);
    }
    task.controller.abort();
    return c.json({ result: "success" });
  });

  app.get("/parameters", (c) => c.json(deps.parameters));

  app.get("/conversations", (c) => {
    const user = c.req.query("user");
    const limit = limitOf(c.req.query("limit"));
    const sortBy = (c.req.query("sort_by") || "-updated_at") as ConversationSort;
    if (!user) return c.json(invalid("Arg user must be provided."), 400);
    if (limit === null) return c.json(invalid(`limit: 1 to ${DIFY_PAGE_MAX}`), 400);
    if (!SORTS.includes(sortBy)) return c.json(invalid(`sort_by: one of ${SORTS.join(", ")}`), 400);
    // dify-client 2.3.2 sends its cursor as `first_id` (WIRE.md: an SDK bug), so that name
    // pages too when `last_id` is absent. Nothing is ever pinned here.
    const lastId = c.req.query("last_id") || c.req.query("first_id") || undefined;
    const page = c.req.query("pinned") === "true"
      ? { ok: true as const, data: [], hasMore: false }
      : conversations.list(user, { lastId, limit, sortBy });
    if (!page.ok) return c.json(difyError(404, "not_found", page.message), 404);
    return c.json({
      limit,
      has_more: page.hasMore,
      data: page.data.map((conversation) => ({
        id: conversation.id,
        name: conversation.name,
        inputs: conversation.inputs,
        status: "normal",
        introduction: deps.parameters.opening_statement,
        created_at: conversation.createdAt,
        updated_at: conversation.updatedAt,
      })),
    });
  });

  app.get("/messages", (c) => {
    const user = c.req.query("user");
    const limit = limitOf(c.req.query("limit"));
    const conversationId = c.req.query("conversation_id");
    if (!user) return c.json(invalid("Arg user must be provided."), 400);
    if (limit === null) return c.json(invalid(`limit: 1 to ${DIFY_PAGE_MAX}`), 400);
    if (!conversationId) return c.json(invalid("conversation_id is required"), 400);
    const conversation = conversations.get(conversationId, user);
    if (!conversation) return c.json(notFound(), 404);
    const page = conversations.messages(conversation, { firstId: c.req.query("first_id"), limit });
    if (!page.ok) return c.json(difyError(404, "not_found", page.message), 404);
    return c.json({
      limit,
      has_more: page.hasMore,
      data: page.data.map((message) => ({
        id: message.id,
        conversation_id: conversation.id,
        inputs: message.inputs,
        query: message.query,
        answer: message.answer,
        message_files: [],
        feedback: null,
        retriever_resources: [],
        agent_thoughts: message.agentThoughts,
        created_at: message.createdAt,
      })),
    });
  });

  app.delete("/conversations/:conversation_id", async (c) => {
    const body = await c.req.json().catch(() => undefined) as { user?: unknown } | undefined;
    const user = typeof body?.user === "string" ? body.user : c.req.query("user");
    if (!user) return c.json(invalid("Arg user must be provided."), 400);
    if (!conversations.delete(c.req.param("conversation_id"), user)) {
      return c.json(notFound(), 404);
    }
    return c.json({ result: "success" });
  });

  return app;
}

/** Keeps the last `agent_thought` of each tool call an encoder makes of a stream's events. */
class ThoughtRecorder {
  readonly #encoder: DifyEncoder;
  readonly #messageId: string;
  readonly #seconds: () => number;
  readonly #byId = new Map<string, DifyAgentThought>();

  constructor(encoder: DifyEncoder, messageId: string, seconds: () => number) {
    this.#encoder = encoder;
    this.#messageId = messageId;
    this.#seconds = seconds;
  }

  /** The events, passed on unchanged, each shown to the encoder first. */
  async *watch(events: AsyncIterable<CanonicalEvent>): AsyncGenerator<CanonicalEvent> {
    for await (const event of events) {
      for (const object of this.#encoder.encode(event, Date.now())) this.#record(object);
      yield event;
    }
  }

  /** The thoughts so far, in call order. */
  thoughts(): DifyAgentThought[] {
    return [...this.#byId.values()].sort((a, b) => a.position - b.position);
  }

  #record(object: DifyObject): void {
    if (object.event !== "agent_thought") return;
    const id = String(object.id);
    this.#byId.set(id, {
      id,
      chain_id: null,
      message_id: this.#messageId,
      position: Number(object.position),
      thought: String(object.thought ?? ""),
      tool: String(object.tool),
      tool_input: String(object.tool_input),
      created_at: this.#byId.get(id)?.created_at ?? this.#seconds(),
      observation: String(object.observation ?? ""),
      message_files: [],
    });
  }
}
