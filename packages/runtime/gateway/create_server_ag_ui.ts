/**
 * `createServer`'s AG-UI endpoint (WIRE.md §2): `POST /` and `POST /:agent` take a
 * RunAgentInput (checked with `@ag-ui/core`'s schema: 422 otherwise), call the agent with
 * the last user message as the query and the messages before it as the history (AG-UI
 * clients send the whole conversation, so nothing is kept here), and stream its events as
 * LF-framed `data:` lines. A client that disconnects aborts the agent's signal.
 *
 * @module
 */
import { Hono } from "hono";
import { RunAgentInputSchema } from "@ag-ui/core/schemas";
import { AgUiEncoder } from "./ag_ui_encoder.ts";
import { agentEvents, type AgentMessage, type InvokeAgent } from "./create_server_agent.ts";

/**
 * The AG-UI routes.
 *
 * @param invokeAgent the agent
 * @param now the time (epoch ms); default `Date.now`
 * @returns a Hono app to mount at the AG-UI path (behind the key check, if any)
 */
export function createServerAgUiRoutes(
  invokeAgent: InvokeAgent,
  now: () => number = Date.now,
): Hono {
  const app = new Hono();
  const run = (body: unknown, agent: string | undefined): Response => {
    if (body === undefined) {
      return Response.json({ error: "The body is not JSON" }, { status: 400 });
    }
    const parsed = RunAgentInputSchema.safeParse(body);
    if (!parsed.success) {
      return Response.json(
        { error: "The body is not a RunAgentInput", issues: parsed.error.issues },
        { status: 422 },
      );
    }
    const input = parsed.data;
    const history: AgentMessage[] = [];
    for (const message of input.messages) {
      if (message.role !== "user" && message.role !== "assistant") continue;
      history.push({ role: message.role, content: textOf(message.content) });
    }
    const last = history.findLastIndex((m) => m.role === "user");
    if (last < 0) return Response.json({ error: "No user message to answer" }, { status: 422 });
    const controller = new AbortController();
    const encoder = new AgUiEncoder({ threadId: input.threadId, runId: input.runId });
    const events = agentEvents(
      invokeAgent,
      {
        query: history[last].content,
        conversationId: input.threadId,
        messages: history.slice(0, last),
        inputs: (input.forwardedProps ?? {}) as Record<string, unknown>,
        signal: controller.signal,
        ...(agent === undefined ? {} : { agent }),
      },
      crypto.randomUUID(),
      () => {},
    );
    const bytes = new TextEncoder();
    const frame = (event: Record<string, unknown>) =>
      bytes.encode(`data: ${JSON.stringify(event)}\n\n`);
    const stream = new ReadableStream<Uint8Array>({
      async start(out) {
        for (const event of encoder.start(now())) out.enqueue(frame(event));
        for await (const event of events) {
          if (controller.signal.aborted) break;
          for (const agUi of encoder.encode(event, now())) out.enqueue(frame(agUi));
          if (encoder.ended) break;
        }
        if (!controller.signal.aborted) out.close();
      },
      cancel() {
        controller.abort();
      },
    });
    return new Response(stream, { headers: { "Content-Type": "text/event-stream" } });
  };
  const body = (request: Request) => request.json().catch(() => undefined);
  app.post("/", async (c) => run(await body(c.req.raw), undefined));
  app.post("/:agent", async (c) => run(await body(c.req.raw), c.req.param("agent")));
  return app;
}

/** A message's text: a string as it is, content parts' text joined. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) =>
    part && typeof part === "object" && part.type === "text" && typeof part.text === "string"
      ? part.text
      : ""
  ).join("");
}
