/**
 * `createServer(invokeAgent)`: any agent function served as the same Dify-compatible chat
 * API and AG-UI endpoint the runtime serves (seed 002's "the server only receives
 * invoke_agent"). `invokeAgent` is an async generator that yields strings (answer text)
 * or canonical events; a `done` is added when it returns, an `error` when it throws. Dify's
 * stop and a disconnected AG-UI client abort its `signal`. Conversations live in memory.
 * No keys: put the app behind your own auth when it is reachable by others.
 *
 * @example
 * ```ts ignore
 * import { createServer } from "@daedalus/runtime";
 *
 * const app = createServer(async function* ({ query }) {
 *   yield `You said: ${query}`;
 * });
 * Deno.serve({ port: 8000 }, app.fetch); // Dify at /v1, AG-UI at /ag-ui
 * ```
 *
 * @module
 */
import { Hono } from "hono";
import { RunAgentInputSchema } from "@ag-ui/core/schemas";
import type { CanonicalEvent } from "@daedalus/protocol";
import { DifyEncoder } from "./dify_encoder.ts";
import { difySseStream } from "./dify_sse.ts";
import { difyError, parseDifyChatRequest } from "./dify_request.ts";
import { AgUiEncoder } from "./ag_ui_encoder.ts";

/** One message of a conversation, as `invokeAgent` sees the history. */
export interface AgentMessage {
  /** Who said it. */
  role: "user" | "assistant";
  /** What was said. */
  content: string;
}

/** What `invokeAgent` is called with. */
export interface AgentRequest {
  /** The user's message. */
  query: string;
  /** The conversation (Dify's conversation id, AG-UI's thread id). */
  conversationId: string;
  /** The conversation before this message. */
  messages: AgentMessage[];
  /** Dify's `inputs` (AG-UI: `forwardedProps`). */
  inputs: Record<string, unknown>;
  /** Aborted by a stop or a client that went away. */
  signal: AbortSignal;
}

/**
 * What {@linkcode createServer} returns: a fetch handler, to serve (`Deno.serve(server.fetch)`)
 * or mount in another Hono app (`app.mount("/agent", server.fetch)`).
 */
export interface AgentServer {
  /**
   * Answers one request.
   *
   * @param request the HTTP request
   * @returns the response
   */
  fetch(request: Request): Response | Promise<Response>;
}

/** The agent function: yields answer text or canonical events. */
export type InvokeAgent = (request: AgentRequest) => AsyncIterable<string | CanonicalEvent>;

/**
 * Serves an agent function as Dify (`/v1/chat-messages`, `/v1/chat-messages/:task_id/stop`)
 * and AG-UI (`/ag-ui`).
 *
 * @param invokeAgent the agent
 * @returns the server (its `fetch`)
 */
export function createServer(invokeAgent: InvokeAgent): AgentServer {
  const conversations = new Map<string, AgentMessage[]>();
  const tasks = new Map<string, { user: string; controller: AbortController }>();
  const app = new Hono();

  const canonical = async function* (
    request: AgentRequest,
    messageId: string,
    onAnswer: (text: string) => void,
  ): AsyncGenerator<CanonicalEvent> {
    let answer = "";
    try {
      for await (const item of invokeAgent(request)) {
        if (request.signal.aborted) break;
        const event: CanonicalEvent = typeof item === "string"
          ? { type: "text_delta", messageId, delta: item }
          : item;
        if (event.type === "text_delta") answer += event.delta;
        if (event.type === "text_delta" && event.delta === "") continue;
        yield event;
        if (event.type === "done") return onAnswer(answer);
      }
      onAnswer(answer);
      yield {
        type: "done",
        status: request.signal.aborted ? "cancelled" : "completed",
        usage: null,
      };
    } catch (error) {
      onAnswer(answer);
      const message = error instanceof Error ? error.message : String(error);
      yield { type: "error", code: "agent_error", message, recoverable: false };
    }
  };

  const remember = (conversationId: string, query: string) => (answer: string) => {
    const history = conversations.get(conversationId) ?? [];
    conversations.set(conversationId, [
      ...history,
      { role: "user", content: query },
      { role: "assistant", content: answer },
    ]);
  };

  app.post("/v1/chat-messages", async (c) => {
    const parsed = parseDifyChatRequest(await c.req.json().catch(() => undefined));
    if (!parsed.ok) return c.json(parsed.error, 400);
    const { request } = parsed;
    if (request.conversationId !== null && !conversations.has(request.conversationId)) {
      return c.json(difyError(404, "not_found", "Conversation Not Exists."), 404);
    }
    const conversationId = request.conversationId ?? crypto.randomUUID();
    const taskId = crypto.randomUUID();
    const messageId = crypto.randomUUID();
    const controller = new AbortController();
    tasks.set(taskId, { user: request.user, controller });
    const startedAt = Date.now();
    const encoder = new DifyEncoder({
      taskId,
      messageId,
      conversationId,
      createdAt: Math.floor(startedAt / 1000),
    }, startedAt);
    const events = canonical(
      {
        query: request.query,
        conversationId,
        messages: conversations.get(conversationId) ?? [],
        inputs: request.inputs,
        signal: controller.signal,
      },
      messageId,
      (answer) => {
        remember(conversationId, request.query)(answer);
        tasks.delete(taskId);
      },
    );
    if (request.responseMode === "streaming") {
      return new Response(difySseStream(events, encoder), {
        headers: { "Content-Type": "text/event-stream; charset=utf-8" },
      });
    }
    for await (const event of events) {
      if (event.type === "error") return c.json(difyError(500, event.code, event.message), 500);
      encoder.encode(event, Date.now());
    }
    return c.json(encoder.blockingResponse(Date.now()));
  });

  app.post("/v1/chat-messages/:task_id/stop", async (c) => {
    const body = await c.req.json().catch(() => undefined) as { user?: unknown } | undefined;
    const task = tasks.get(c.req.param("task_id"));
    if (!task || task.user !== body?.user) {
      return c.json(difyError(404, "not_found", "Task Not Exists."), 404);
    }
    task.controller.abort();
    return c.json({ result: "success" });
  });

  app.post("/ag-ui", async (c) => {
    const parsed = RunAgentInputSchema.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) {
      return c.json({ error: "The body is not a RunAgentInput", issues: parsed.error.issues }, 422);
    }
    const input = parsed.data;
    const history: AgentMessage[] = [];
    for (const message of input.messages) {
      if (message.role !== "user" && message.role !== "assistant") continue;
      const content = typeof message.content === "string" ? message.content : "";
      history.push({ role: message.role, content });
    }
    const last = history.findLastIndex((m) => m.role === "user");
    if (last < 0) return c.json({ error: "No user message to answer" }, 422);
    const controller = new AbortController();
    const encoder = new AgUiEncoder({ threadId: input.threadId, runId: input.runId });
    const events = canonical(
      {
        query: history[last].content,
        conversationId: input.threadId,
        messages: history.slice(0, last),
        inputs: (input.forwardedProps ?? {}) as Record<string, unknown>,
        signal: controller.signal,
      },
      crypto.randomUUID(),
      () => {},
    );
    const bytes = new TextEncoder();
    const frame = (event: Record<string, unknown>) =>
      bytes.encode(`data: ${JSON.stringify(event)}\n\n`);
    const stream = new ReadableStream<Uint8Array>({
      async start(out) {
        for (const event of encoder.start(Date.now())) out.enqueue(frame(event));
        for await (const event of events) {
          for (const agUi of encoder.encode(event, Date.now())) out.enqueue(frame(agUi));
          if (encoder.ended) break;
        }
        if (!controller.signal.aborted) out.close();
      },
      cancel() {
        controller.abort();
      },
    });
    return new Response(stream, { headers: { "Content-Type": "text/event-stream" } });
  });

  return { fetch: (request) => app.fetch(request) };
}
