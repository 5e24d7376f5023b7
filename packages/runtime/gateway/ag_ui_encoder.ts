/**
 * Canonical events to AG-UI 1.0 events (WIRE.md §2), in an order the official client's
 * `verifyEvents` accepts: RUN_STARTED first; each text message, reasoning message, tool
 * call's arguments and step closed before the next of its kind opens and before
 * RUN_FINISHED; nothing after RUN_FINISHED or RUN_ERROR. Timestamps are integer epoch
 * milliseconds. Pure: the encoder holds only the stream's state.
 *
 * A tool call's arguments close (TOOL_CALL_END) when anything but more of its arguments
 * comes; its result is TOOL_CALL_RESULT. A Run waiting for its client-side calls (an
 * interrupt with reason `client_tool`) ends the AG-UI run with a `success` outcome naming
 * them in `pendingToolCallIds` (as does a completed run with calls left without a
 * result); an approval wait ends it with an `interrupt` outcome. Files and
 * custom events are CUSTOM; recoverable errors are left out (RUN_ERROR ends a run).
 *
 * @module
 */
import type { CanonicalEvent, TokenUsage } from "@daedalus/protocol";
import { addUsage } from "./usage_sum.ts";
import { CLIENT_TOOL_INTERRUPT_REASON } from "./journal_to_canonical.ts";

/** One AG-UI event object. */
export type AgUiEvent = Record<string, unknown> & { type: string };

/** The ids of one AG-UI run. */
export interface AgUiRunIds {
  /** The client's thread id. */
  threadId: string;
  /** The client's run id. */
  runId: string;
  /** The model that answers, for RUN_FINISHED's usage; no usage is reported without it. */
  model?: { provider: string; model: string };
}

/** Turns one AG-UI run's canonical events into AG-UI events, in order. */
export class AgUiEncoder {
  readonly #ids: AgUiRunIds;
  #text: string | null = null;
  #lastText: string | null = null;
  #reasoning: string | null = null;
  /** Calls whose arguments are still open (no TOOL_CALL_END yet). */
  #openArgs = new Set<string>();
  /** Calls started and without a result: client-side calls when the run completes. */
  #pending: string[] = [];
  #steps: string[] = [];
  #usage: TokenUsage | null = null;
  #ended = false;

  /**
   * Makes the encoder of one run.
   *
   * @param ids the run's ids
   */
  constructor(ids: AgUiRunIds) {
    this.#ids = ids;
  }

  /** Whether the run ended (RUN_FINISHED or RUN_ERROR went out). */
  get ended(): boolean {
    return this.#ended;
  }

  /**
   * The run's first event.
   *
   * @param nowMs the time (epoch ms)
   * @returns RUN_STARTED
   */
  start(nowMs: number): AgUiEvent[] {
    const { threadId, runId } = this.#ids;
    return [this.#event("RUN_STARTED", { threadId, runId }, nowMs)];
  }

  /**
   * Encodes one canonical event.
   *
   * @param event the event
   * @param nowMs the time (epoch ms)
   * @returns the AG-UI events it becomes
   */
  encode(event: CanonicalEvent, nowMs: number): AgUiEvent[] {
    if (this.#ended) return [];
    const out: AgUiEvent[] = [];
    const emit = (type: string, fields: Record<string, unknown>) =>
      out.push(this.#event(type, fields, nowMs));
    const moreArgs = event.type === "tool_call_start" && this.#openArgs.has(event.toolCallId);
    if (!moreArgs) this.#closeArgs(emit);
    switch (event.type) {
      case "text_delta":
        this.#closeReasoning(emit);
        if (this.#text !== event.messageId) {
          this.#closeText(emit);
          emit("TEXT_MESSAGE_START", { messageId: event.messageId, role: "assistant" });
          this.#text = event.messageId;
        }
        emit("TEXT_MESSAGE_CONTENT", { messageId: event.messageId, delta: event.delta });
        break;
      case "reasoning_delta": {
        this.#closeText(emit);
        const id = `${event.messageId}:reasoning`;
        if (this.#reasoning !== id) {
          this.#closeReasoning(emit);
          emit("REASONING_START", { messageId: id });
          emit("REASONING_MESSAGE_START", { messageId: id, role: "reasoning" });
          this.#reasoning = id;
        }
        emit("REASONING_MESSAGE_CONTENT", { messageId: id, delta: event.delta });
        break;
      }
      case "tool_call_start":
        if (!moreArgs) {
          this.#closeText(emit);
          this.#closeReasoning(emit);
          emit("TOOL_CALL_START", {
            toolCallId: event.toolCallId,
            toolCallName: event.name,
            ...(this.#lastText ? { parentMessageId: this.#lastText } : {}),
          });
          this.#openArgs.add(event.toolCallId);
          this.#pending.push(event.toolCallId);
        }
        if (event.argsDelta !== "") {
          emit("TOOL_CALL_ARGS", { toolCallId: event.toolCallId, delta: event.argsDelta });
        }
        break;
      case "tool_call_end":
        if (!this.#pending.includes(event.toolCallId)) break;
        this.#pending = this.#pending.filter((id) => id !== event.toolCallId);
        emit("TOOL_CALL_RESULT", {
          messageId: `${event.toolCallId}:result`,
          toolCallId: event.toolCallId,
          content: event.result,
          role: "tool",
        });
        break;
      case "node_lifecycle":
        if (event.phase === "start" && !this.#steps.includes(event.nodeId)) {
          // A new model call's tool calls belong to its own answer, not an earlier one.
          this.#lastText = null;
          this.#steps.push(event.nodeId);
          emit("STEP_STARTED", { stepName: event.nodeId });
        } else if (event.phase === "end" && this.#steps.includes(event.nodeId)) {
          this.#steps = this.#steps.filter((step) => step !== event.nodeId);
          emit("STEP_FINISHED", { stepName: event.nodeId });
        }
        break;
      case "subagent_start":
        emit("SUBAGENT_STARTED", { subagentRunId: event.runId, name: event.agentName });
        break;
      case "subagent_end":
        if (event.status === "failed") {
          emit("SUBAGENT_ERROR", {
            subagentRunId: event.runId,
            message: `${event.agentName} failed`,
          });
        } else emit("SUBAGENT_FINISHED", { subagentRunId: event.runId });
        break;
      case "file_output":
        emit("CUSTOM", {
          name: "file_output",
          value: {
            fileId: event.fileId,
            kind: event.kind,
            mimeType: event.mimeType,
            url: event.url,
            name: event.name,
          },
        });
        break;
      case "custom":
        emit("CUSTOM", { name: event.name, value: event.payload ?? null });
        break;
      case "usage":
        this.#usage = addUsage(this.#usage, event.usage);
        break;
      case "error":
        if (event.recoverable) break;
        this.#ended = true;
        emit("RUN_ERROR", { message: event.message, code: event.code });
        break;
      case "interrupt": {
        const calls = event.data.reason === CLIENT_TOOL_INTERRUPT_REASON
          ? event.data.toolCallIds
          : undefined;
        if (Array.isArray(calls)) {
          // The client runs these: the AG-UI run succeeds with them pending, and the next
          // request's `tool` messages carry their results.
          this.#finish(emit, { type: "success", pendingToolCallIds: calls.map(String) });
        } else {
          const decisions = Array.isArray(event.data.decisions)
            ? event.data.decisions.map(String)
            : [];
          const question = event.data.question as
            | { text: string; choices?: string[]; multiple?: boolean }
            | undefined;
          this.#finish(emit, {
            type: "interrupt",
            interrupts: [{
              id: event.interruptId,
              // An `ask_user` question waits for an answer, anything else for a decision.
              reason: question ? "question" : "approval",
              message: question?.text ?? event.message,
              ...(event.nodeName !== null ? { toolCallId: event.nodeName } : {}),
              // What a `resume` entry's payload may say (no payload: allow once).
              ...(question
                ? { responseSchema: questionResponseSchema(question) }
                : decisions.length > 0
                ? { responseSchema: approvalResponseSchema(decisions) }
                : {}),
            }],
          });
        }
        break;
      }
      case "done":
        if (event.usage) this.#usage = event.usage;
        if (event.status === "failed") {
          this.#ended = true;
          emit("RUN_ERROR", { message: "The run failed.", code: "run_failed" });
        } else if (event.status === "cancelled") {
          this.#finish(emit, { type: "cancelled" });
        } else {
          this.#finish(emit, {
            type: "success",
            ...(this.#pending.length > 0 ? { pendingToolCallIds: [...this.#pending] } : {}),
          });
        }
        break;
    }
    return out;
  }

  #finish(emit: (type: string, fields: Record<string, unknown>) => void, outcome: unknown): void {
    this.#closeText(emit);
    this.#closeReasoning(emit);
    for (const step of this.#steps.reverse()) emit("STEP_FINISHED", { stepName: step });
    this.#steps = [];
    const { threadId, runId, model } = this.#ids;
    const usage = model && this.#usage
      ? [{
        provider: model.provider,
        model: model.model,
        inputTokens: this.#usage.inputTokens,
        outputTokens: this.#usage.outputTokens,
        totalTokens: this.#usage.totalTokens,
      }]
      : undefined;
    emit("RUN_FINISHED", { threadId, runId, outcome, ...(usage ? { usage } : {}) });
    this.#ended = true;
  }

  #closeArgs(emit: (type: string, fields: Record<string, unknown>) => void): void {
    for (const id of this.#openArgs) emit("TOOL_CALL_END", { toolCallId: id });
    this.#openArgs.clear();
  }

  #closeText(emit: (type: string, fields: Record<string, unknown>) => void): void {
    if (this.#text === null) return;
    emit("TEXT_MESSAGE_END", { messageId: this.#text });
    this.#lastText = this.#text;
    this.#text = null;
  }

  #closeReasoning(emit: (type: string, fields: Record<string, unknown>) => void): void {
    if (this.#reasoning === null) return;
    emit("REASONING_MESSAGE_END", { messageId: this.#reasoning });
    emit("REASONING_END", { messageId: this.#reasoning });
    this.#reasoning = null;
  }

  #event(type: string, fields: Record<string, unknown>, nowMs: number): AgUiEvent {
    return { type, ...fields, timestamp: Math.floor(nowMs) };
  }
}

/**
 * The JSON Schema of an approval interrupt's answer: `{decision, message?}`, the decision
 * one of those the approval offers.
 *
 * @param decisions the decisions offered
 * @returns the schema
 */
export function approvalResponseSchema(decisions: readonly string[]): Record<string, unknown> {
  return {
    type: "object",
    properties: {
      decision: { type: "string", enum: [...decisions] },
      message: { type: "string" },
    },
    required: ["decision"],
  };
}

/**
 * The JSON Schema of a question interrupt's answer: `{answer}`, text, one of the choices,
 * or several of them when the question allows it (`{decision: "deny"}` declines).
 *
 * @param question the question
 * @returns the schema
 */
export function questionResponseSchema(
  question: { choices?: readonly string[]; multiple?: boolean },
): Record<string, unknown> {
  const choice = question.choices
    ? { type: "string", enum: [...question.choices] }
    : { type: "string" };
  return {
    type: "object",
    properties: {
      answer: question.multiple ? { type: "array", items: choice, minItems: 1 } : choice,
      decision: { type: "string", enum: ["allow_once", "deny"] },
    },
  };
}
