/**
 * AG-UI's `POST /ag-ui` (WIRE.md §2): a RunAgentInput, checked with the official schema
 * package (`@ag-ui/core`), starts a turn with its last user message (the `context` entries
 * put before it) and streams the Run as AG-UI events, LF-framed `data:` lines. The
 * client's `threadId` names a Daedalus thread of this key (made on first use). The key's
 * profile decides the model and policy. A client that disconnects cancels the run.
 * Client-side `tools` are not offered to the model yet.
 *
 * @module
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { RunAgentInputSchema } from "@ag-ui/core/schemas";
import { RpcError } from "@daedalus/protocol";
import type { StateStore } from "@daedalus/storage";
import type { Dispatcher } from "../server/dispatcher.ts";
import { createGatewayThread, gatewayCall, startGatewayTurn } from "./gateway_calls.ts";
import type { GatewayEnv, GatewayRefusal } from "./key_auth.ts";
import type { ConversationOwners } from "./conversation_owners.ts";
import { AgUiEncoder } from "./ag_ui_encoder.ts";
import { type LiveEvents, runCanonicalEvents } from "./run_canonical_stream.ts";

/** What {@linkcode agUiRoutes} needs. */
export interface AgUiRouteDeps {
  /** Runs thread.create, turn.start, run.cancel. */
  dispatcher: Dispatcher;
  /** The journal so far. */
  store: StateStore;
  /** Live events. */
  live: LiveEvents;
  /** Who owns each thread (an AG-UI thread is owned under `ag-ui:<threadId>`). */
  owners: ConversationOwners;
  /** The time (epoch ms); default `Date.now`. */
  now?: () => number;
}

/**
 * An app-key refusal in AG-UI's terms: HttpAgent shows a JSON body's text in its error.
 *
 * @param c the request's context
 * @param refusal why
 * @returns the response
 */
export function agUiRefusal(c: Context, refusal: GatewayRefusal): Response {
  if (refusal.status === 429) c.header("Retry-After", String(refusal.retryAfterSeconds));
  return c.json({ error: refusal.message, code: refusal.code }, refusal.status);
}

/**
 * The AG-UI route.
 *
 * @param deps dispatcher, store, live events, owners
 * @returns a Hono app serving `POST /` (mount it at `/ag-ui` behind the key middleware)
 */
export function agUiRoutes(deps: AgUiRouteDeps): Hono<GatewayEnv> {
  const now = deps.now ?? Date.now;
  const call = gatewayCall(deps.dispatcher);
  const app = new Hono<GatewayEnv>();
  app.post("/", async (c) => {
    const key = c.get("gatewayKey");
    const body = await c.req.json().catch(() => undefined);
    if (body === undefined) return c.json({ error: "The body is not JSON" }, 400);
    const parsed = RunAgentInputSchema.safeParse(body);
    if (!parsed.success) {
      return c.json({ error: "The body is not a RunAgentInput", issues: parsed.error.issues }, 422);
    }
    const input = parsed.data;
    const last = [...input.messages].reverse().find((m) => m.role === "user");
    const query = last ? userText(last.content) : "";
    if (query === "") return c.json({ error: "No user message to answer" }, 422);
    const context = input.context.map((entry: { description: string; value: string }) =>
      `- ${entry.description}: ${entry.value}`
    );
    const content = context.length > 0 ? `Context:\n${context.join("\n")}\n\n${query}` : query;
    const owner = { keyId: key.keyId, user: `ag-ui:${input.threadId}` };
    let runId: string;
    try {
      let threadId = deps.owners.threadsOf(owner)[0];
      if (threadId === undefined) {
        threadId = await createGatewayThread(call, key);
        await deps.owners.addThread(threadId, owner);
      }
      runId = await startGatewayTurn(call, key, { threadId, content });
    } catch (error) {
      if (error instanceof RpcError) {
        return c.json({ error: error.message, code: error.data.reasonCode }, 400);
      }
      throw error;
    }
    const encoder = new AgUiEncoder({
      threadId: input.threadId,
      runId: input.runId,
      model: { provider: key.profile.providerId, model: key.profile.modelId },
    });
    const controller = new AbortController();
    const bytes = new TextEncoder();
    const frame = (event: Record<string, unknown>) =>
      bytes.encode(`data: ${JSON.stringify(event)}\n\n`);
    let finished = false;
    const stream = new ReadableStream<Uint8Array>({
      async start(out) {
        for (const event of encoder.start(now())) out.enqueue(frame(event));
        try {
          for await (
            const { event } of runCanonicalEvents({
              store: deps.store,
              live: deps.live,
              runId,
              signal: controller.signal,
            })
          ) {
            for (const agUi of encoder.encode(event, now())) out.enqueue(frame(agUi));
            if (encoder.ended) break;
          }
        } catch (error) {
          if (!encoder.ended && !controller.signal.aborted) {
            const message = error instanceof Error ? error.message : String(error);
            out.enqueue(frame({ type: "RUN_ERROR", message, timestamp: Math.floor(now()) }));
          }
        }
        finished = true;
        if (!controller.signal.aborted) out.close();
      },
      cancel() {
        controller.abort();
        // The client went away: its run stops too (AG-UI has no separate stop call).
        if (!finished) call("run.cancel", { runId }).catch(() => {});
      },
    });
    return new Response(stream, {
      headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" },
    });
  });
  return app;
}

/** A user message's text: the string, or its text parts joined. */
function userText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.filter((part) => part?.type === "text").map((part) => String(part.text))
    .join("\n");
}
