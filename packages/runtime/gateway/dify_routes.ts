/**
 * Dify's chat endpoints on a Hono app (mounted under `/dify/v1`): `POST /chat-messages`
 * (streaming SSE or blocking JSON) and `POST /chat-messages/:task_id/stop`. Behind the
 * app-key middleware: the key's profile decides the model, the execution policy and the
 * workspace, never the request. A conversation id maps to a thread by its digits; only a
 * thread this key and user made can be continued (else 404 "Conversation Not Exists.").
 * A task id is the run id. Refusals before a stream starts use Dify's `{code, message,
 * status}`; failures after it are `error` frames.
 *
 * @module
 */
import { Hono } from "hono";
import { RpcError } from "@daedalus/protocol";
import type { StateStore } from "@daedalus/storage";
import type { Dispatcher } from "../server/dispatcher.ts";
import { createGatewayThread, gatewayCall, startGatewayTurn } from "./gateway_calls.ts";
import type { ScheduleTimer } from "../timer.ts";
import type { GatewayEnv } from "./key_auth.ts";
import type { ConversationOwners } from "./conversation_owners.ts";
import { threadIdOfConversation, uuidOf } from "./conversation_ids.ts";
import { difyError, difyTurnContent, parseDifyChatRequest } from "./dify_request.ts";
import { DifyEncoder } from "./dify_encoder.ts";
import { difyAttachments } from "./dify_files.ts";
import { difySseStream } from "./dify_sse.ts";
import { type LiveEvents, runCanonicalEvents } from "./run_canonical_stream.ts";

/** What {@linkcode difyRoutes} needs. */
export interface DifyRouteDeps {
  /** Runs the RPC methods (thread.create, turn.start, run.cancel). */
  dispatcher: Dispatcher;
  /** The journal so far. */
  store: StateStore;
  /** Live events. */
  live: LiveEvents;
  /** Who owns each conversation and task. */
  owners: ConversationOwners;
  /** The ping timer; default the real clock's. */
  schedule?: ScheduleTimer;
  /** The time (epoch ms); default `Date.now`. */
  now?: () => number;
  /** Masks the runtime's protected values in error and approval texts; default none. */
  redact?: (text: string) => string;
}

/**
 * The Dify chat routes.
 *
 * @param deps dispatcher, store, live events, owners, clock
 * @returns a Hono app to mount behind `gatewayKeyAuth`
 */
export function difyRoutes(deps: DifyRouteDeps): Hono<GatewayEnv> {
  const now = deps.now ?? Date.now;
  const call = gatewayCall(deps.dispatcher);
  const app = new Hono<GatewayEnv>();

  app.post("/chat-messages", async (c) => {
    const startedAt = now();
    const key = c.get("gatewayKey");
    const body = await c.req.json().catch(() => undefined);
    const parsed = parseDifyChatRequest(body);
    if (!parsed.ok) return c.json(parsed.error, 400);
    const { request } = parsed;
    const owner = { keyId: key.keyId, user: request.user };
    let threadId: string;
    if (request.conversationId !== null) {
      const named = threadIdOfConversation(request.conversationId);
      if (named === null || !deps.owners.owns(named, owner)) {
        return c.json(difyError(404, "not_found", "Conversation Not Exists."), 404);
      }
      threadId = named;
    }
    const files = difyAttachments(request.files, owner, deps.owners);
    if (!files.ok) return c.json(files.error, 400);
    let runId: string;
    try {
      if (request.conversationId === null) {
        threadId = await createGatewayThread(call, key);
        await deps.owners.addThread(threadId, owner);
      }
      runId = await startGatewayTurn(call, key, {
        threadId: threadId!,
        content: difyTurnContent(request.query, request.inputs),
        attachments: files.attachments,
      });
    } catch (error) {
      if (error instanceof RpcError) {
        return c.json(difyError(400, error.data.reasonCode ?? "invalid_param", error.message), 400);
      }
      throw error;
    }
    await deps.owners.addRun(runId, threadId!, owner);
    const encoder = new DifyEncoder(
      {
        taskId: runId,
        messageId: uuidOf(runId),
        conversationId: uuidOf(threadId!),
        createdAt: Math.floor(startedAt / 1000),
      },
      startedAt,
      deps.redact,
    );
    const controller = new AbortController();
    const events = (async function* () {
      for await (
        const { event } of runCanonicalEvents({
          store: deps.store,
          live: deps.live,
          runId,
          signal: controller.signal,
        })
      ) yield event;
    })();
    if (request.responseMode === "streaming") {
      const stream = difySseStream(events, encoder, {
        schedule: deps.schedule,
        now,
        // Dify goes on when the client leaves (stop is explicit); only the stream ends.
        onClientGone: () => controller.abort(),
      });
      return new Response(stream, {
        headers: {
          "Content-Type": "text/event-stream; charset=utf-8",
          "Cache-Control": "no-cache",
        },
      });
    }
    let failure: { code: string; message: string } | null = null;
    for await (const event of events) {
      if (event.type === "error" && !event.recoverable) failure = event;
      encoder.encode(event, now());
      // A run waiting for the owner's approval cannot finish within one blocking answer.
      // Dify has no such pause; its clients read a blocking answer as a 200 `message` and
      // treat anything else as a failure that carries no task or conversation id. So the
      // answer is a 200 with what came so far and `metadata.waiting` naming the approval:
      // the client keeps the conversation and the task id (to stop it), and an unaware one
      // still shows a well-formed message. The run goes on once the owner decides.
      if (event.type === "interrupt") break;
    }
    if (failure) {
      const message = deps.redact ? deps.redact(failure.message) : failure.message;
      return c.json(difyError(500, failure.code, message), 500);
    }
    return c.json(encoder.blockingResponse(now()));
  });

  app.post("/chat-messages/:task_id/stop", async (c) => {
    const key = c.get("gatewayKey");
    const body = await c.req.json().catch(() => undefined) as { user?: unknown } | undefined;
    if (typeof body?.user !== "string" || body.user === "") {
      return c.json(difyError(400, "invalid_param", "Arg user must be provided."), 400);
    }
    const task = deps.owners.run(c.req.param("task_id"));
    if (!task || task.keyId !== key.keyId || task.user !== body.user) {
      return c.json(difyError(404, "not_found", "Task Not Exists."), 404);
    }
    await call("run.cancel", { runId: c.req.param("task_id") });
    return c.json({ result: "success" });
  });

  return app;
}
