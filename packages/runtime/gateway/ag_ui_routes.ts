/**
 * AG-UI's `POST /ag-ui` (WIRE.md §2): a RunAgentInput, checked with the official schema
 * package (`@ag-ui/core`), starts a turn with its last user message (the `context` entries
 * put before it) and streams the Run as AG-UI events, LF-framed `data:` lines. The
 * client's `threadId` names a Daedalus thread of this key (made on first use). The key's
 * profile decides the model, policy and tools. The client's own `tools` are offered to the
 * model as client-side tools: a call to one ends the AG-UI run with the call pending (the
 * Daedalus Run waits), and the next request's trailing `tool` messages carry the results,
 * which continue that same Run (streamed from where it went on). An approval wait ends
 * the AG-UI run with an `interrupt` outcome; the next request's `resume` entries answer
 * it (the app key's front end answers for its runs) and the Run goes on. A new user
 * message instead gives a waiting Run up. A client that disconnects cancels the run.
 *
 * @module
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { RunAgentInputSchema } from "@ag-ui/core/schemas";
import { RpcError } from "@daedalus/protocol";
import {
  latestSeq,
  readApproval,
  readClientToolWait,
  readRunConfig,
  readWaitingRunId,
  type StateStore,
} from "@daedalus/storage";
import type { Dispatcher } from "../server/dispatcher.ts";
import {
  allowedModel,
  createGatewayThread,
  gatewayCall,
  startGatewayTurn,
} from "./gateway_calls.ts";
import type { GatewayEnv, GatewayRefusal } from "./key_auth.ts";
import type { ConversationOwners } from "./conversation_owners.ts";
import { AgUiEncoder } from "./ag_ui_encoder.ts";
import { approvalAnswer, toolParameters, trailingToolResults, userText } from "./ag_ui_input.ts";
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
 * @returns a Hono app serving `POST /` and `POST /:agent` (an agent profile id), to mount
 * at `/ag-ui` behind the key middleware
 */
export function agUiRoutes(deps: AgUiRouteDeps): Hono<GatewayEnv> {
  const now = deps.now ?? Date.now;
  const call = gatewayCall(deps.dispatcher);
  const app = new Hono<GatewayEnv>();
  const handler = async (c: Context<GatewayEnv>, agent: string | undefined) => {
    const key = c.get("gatewayKey");
    const body = await c.req.json().catch(() => undefined);
    if (body === undefined) return c.json({ error: "The body is not JSON" }, 400);
    const parsed = RunAgentInputSchema.safeParse(body);
    if (!parsed.success) {
      return c.json({ error: "The body is not a RunAgentInput", issues: parsed.error.issues }, 422);
    }
    const input = parsed.data;
    // `/ag-ui/:agent` threads are the agent's own: the same client thread id under another
    // agent is another Daedalus thread.
    const owner = {
      keyId: key.keyId,
      user: agent === undefined ? `ag-ui:${input.threadId}` : `ag-ui:${agent}:${input.threadId}`,
    };
    const known = deps.owners.threadsOf(owner)[0];
    const results = trailingToolResults(input.messages);
    const wait = known === undefined
      ? null
      : deps.store.read((db) => readClientToolWait(db, known));
    let runId: string;
    let afterSeq = 0;
    try {
      if (input.resume !== undefined && input.resume.length > 0) {
        // The person answered the approval the last run ended on: that Run goes on.
        const answers = input.resume.flatMap((entry) => {
          const approval = known === undefined
            ? null
            : deps.store.read((db) => readApproval(db, entry.interruptId));
          if (approval?.status !== "pending" || approval.threadId !== known) return [];
          const answer = approvalAnswer(entry, approval.decisions);
          return answer === null ? [] : [{ approval, answer }];
        });
        if (answers.length === 0) {
          return c.json(
            { error: "The resume entries answer no interrupt this thread waits on" },
            422,
          );
        }
        afterSeq = deps.store.read((db) => latestSeq(db));
        for (const { approval, answer } of answers) {
          await call("approval.respond", { approvalId: approval.approvalId, ...answer });
        }
        runId = answers[0]!.approval.runId;
      } else if (results.length > 0) {
        // The client ran the tools of a Run that waits for them: that Run goes on.
        if (wait === null) {
          return c.json({ error: "No run of this thread waits for tool results" }, 409);
        }
        const pending = new Set(wait.calls.map((call) => call.id));
        const answers = results.filter((result) => pending.has(result.toolCallId));
        if (answers.length === 0) {
          return c.json({
            error: "The tool results name no call the run waits for",
            pendingToolCallIds: [...pending],
          }, 422);
        }
        afterSeq = deps.store.read((db) => latestSeq(db));
        for (const answer of answers) {
          await call("run.submit_tool_result", {
            runId: wait.runId,
            toolCallItemId: answer.toolCallId,
            content: answer.content,
            ...(answer.error ? { isError: true } : {}),
          });
        }
        runId = wait.runId;
      } else {
        const last = [...input.messages].reverse().find((m) => m.role === "user");
        const query = last ? userText(last.content) : "";
        if (query === "") return c.json({ error: "No user message to answer" }, 422);
        const context = input.context.map((entry: { description: string; value: string }) =>
          `- ${entry.description}: ${entry.value}`
        );
        const content = context.length > 0 ? `Context:\n${context.join("\n")}\n\n${query}` : query;
        const forwarded = input.forwardedProps as { model?: unknown } | undefined;
        const model = allowedModel(key, forwarded?.model);
        if (model === null) {
          return c.json({
            error: "forwardedProps.model names a model this key does not allow " +
              "(provider/model, one of the key's models)",
          }, 422);
        }
        let threadId = known;
        if (threadId === undefined) {
          threadId = await createGatewayThread(call, key, agent ?? key.profile.agentId);
          await deps.owners.addThread(threadId, owner);
        }
        // A new message instead of the results or the answer: the waiting Run is given up.
        const waiting = deps.store.read((db) => readWaitingRunId(db, threadId!));
        if (waiting !== null) await call("run.cancel", { runId: waiting });
        runId = await startGatewayTurn(call, key, {
          threadId,
          content,
          ...(model ? { model } : {}),
          clientTools: input.tools.map((tool) => ({
            name: tool.name,
            description: tool.description,
            parameters: toolParameters(tool.parameters),
          })),
        });
      }
    } catch (error) {
      if (error instanceof RpcError) {
        return c.json({ error: error.message, code: error.data.reasonCode }, 400);
      }
      throw error;
    }
    const runModel = deps.store.read((db) => readRunConfig(db, runId));
    const encoder = new AgUiEncoder({
      threadId: input.threadId,
      runId: input.runId,
      // The Run's own model (a request may have chosen one the key allows).
      model: { provider: runModel.providerId, model: runModel.modelId },
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
              afterSeq,
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
  };
  app.post("/", (c) => handler(c, undefined));
  // The agent profile the client names (CopilotKit and others put it in the path).
  app.post("/:agent", (c) => handler(c, c.req.param("agent")));
  return app;
}
