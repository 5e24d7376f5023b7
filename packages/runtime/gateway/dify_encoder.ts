/**
 * Canonical events to Dify's chat SSE objects (agent-chat app shape, WIRE.md §1; seed 002
 * §3.2): text deltas become `agent_message`, each tool call one `agent_thought` upserted
 * by id (at its start, then with its observation) with its position from 1, usage is
 * summed into `message_end.metadata.usage`, a fatal error is an `error` object (the stream
 * ends after it). Every object carries `event`, `task_id`, `message_id`,
 * `conversation_id` and `created_at`. Pure: the encoder holds only the stream's state.
 *
 * What Dify has no event for is left out: model-call nodes (agent apps have none) and
 * recoverable errors (a Dify `error` ends the stream). Reasoning goes out as
 * `reasoning_chunk`, sub-agents as `subagent_start`/`subagent_end`, an interrupt as
 * `workflow_paused` and custom events under their own name, as seed 002 maps them;
 * Dify clients skip events they do not know.
 *
 * @module
 */
import type { CanonicalEvent, TokenUsage } from "@daedalus/protocol";
import { redactValue } from "../security/redact_value.ts";
import { addUsage } from "./usage_sum.ts";

/** The ids every object of one stream carries. */
export interface DifyStreamIds {
  /** The task id (`POST /chat-messages/:task_id/stop` names it). */
  taskId: string;
  /** The answer message's id. */
  messageId: string;
  /** The conversation (a UUID mapped to a Daedalus thread). */
  conversationId: string;
  /** When the message was created, epoch seconds. */
  createdAt: number;
}

/** One Dify SSE data object. */
export type DifyObject = Record<string, unknown> & { event: string };

/** Dify's `message_end.metadata.usage`; prices are decimal strings, latency seconds. */
export interface DifyUsage {
  /** Input tokens. */
  prompt_tokens: number;
  /** Price per input token unit. */
  prompt_unit_price: string;
  /** The unit prices are per. */
  prompt_price_unit: string;
  /** Price of the input tokens. */
  prompt_price: string;
  /** Output tokens. */
  completion_tokens: number;
  /** Price per output token unit. */
  completion_unit_price: string;
  /** The unit prices are per. */
  completion_price_unit: string;
  /** Price of the output tokens. */
  completion_price: string;
  /** All tokens. */
  total_tokens: number;
  /** Price of all tokens. */
  total_price: string;
  /** The prices' currency. */
  currency: string;
  /** Seconds from the request to the end. */
  latency: number;
}

interface Thought {
  id: string;
  position: number;
  tool: string;
  args: string;
  observation: string;
}

/**
 * Dify's usage object from Daedalus token usage. Daedalus prices runs in budgets, not per
 * message, so the prices are zero.
 *
 * @param usage the summed usage, or null when no call reported any
 * @param latencySeconds seconds from the request to the end
 * @returns the usage object
 */
export function difyUsage(usage: TokenUsage | null, latencySeconds: number): DifyUsage {
  return {
    prompt_tokens: usage?.inputTokens ?? 0,
    prompt_unit_price: "0",
    prompt_price_unit: "0.000001",
    prompt_price: "0",
    completion_tokens: usage?.outputTokens ?? 0,
    completion_unit_price: "0",
    completion_price_unit: "0.000001",
    completion_price: "0",
    total_tokens: usage?.totalTokens ?? 0,
    total_price: "0",
    currency: "USD",
    latency: latencySeconds,
  };
}

/** Turns one stream's canonical events into Dify objects, in order. */
export class DifyEncoder {
  readonly #ids: DifyStreamIds;
  readonly #startedAtMs: number;
  readonly #thoughts = new Map<string, Thought>();
  readonly #redact: (text: string) => string;
  #usage: TokenUsage | null = null;
  #answer = "";
  #ended = false;
  #waiting: { interrupt_id: string; reason: "approval_required"; message: string } | null = null;

  /**
   * Makes the encoder of one stream.
   *
   * @param ids the stream's ids
   * @param startedAtMs when the request came (epoch ms), for the latency
   * @param redact masks the runtime's protected values (keys, secrets) in the texts that
   *   quote the outside world: error messages and approval requests; default none
   */
  constructor(
    ids: DifyStreamIds,
    startedAtMs: number,
    redact: (text: string) => string = (text) => text,
  ) {
    this.#ids = ids;
    this.#startedAtMs = startedAtMs;
    this.#redact = redact;
  }

  /** The approval the run waits for, once an interrupt went by; null otherwise. */
  get waiting(): { interrupt_id: string; reason: "approval_required"; message: string } | null {
    return this.#waiting;
  }

  /** The answer so far (all text deltas): the blocking response's `answer`. */
  get answer(): string {
    return this.#answer;
  }

  /** Whether the stream ended (`message_end` or `error` went out). */
  get ended(): boolean {
    return this.#ended;
  }

  /**
   * Encodes one canonical event.
   *
   * @param event the event
   * @param nowMs the time now (epoch ms), for `message_end`'s latency
   * @returns the Dify objects it becomes (often one, sometimes none)
   */
  encode(event: CanonicalEvent, nowMs: number): DifyObject[] {
    if (this.#ended) return [];
    switch (event.type) {
      case "text_delta":
        this.#answer += event.delta;
        return [this.#object("agent_message", { id: this.#ids.messageId, answer: event.delta })];
      case "reasoning_delta":
        return [this.#object("reasoning_chunk", { reasoning: event.delta })];
      case "file_output":
        return [this.#object("message_file", {
          id: event.fileId,
          type: event.kind,
          belongs_to: "assistant",
          url: event.url,
        })];
      case "tool_call_start": {
        const known = this.#thoughts.get(event.toolCallId);
        const thought = known ? { ...known, args: known.args + event.argsDelta } : {
          id: event.toolCallId,
          position: this.#thoughts.size + 1,
          tool: event.name,
          args: event.argsDelta,
          observation: "",
        };
        this.#thoughts.set(thought.id, thought);
        return [this.#thought(thought)];
      }
      case "tool_call_end": {
        const known = this.#thoughts.get(event.toolCallId);
        if (!known) return [];
        const thought = { ...known, observation: event.result };
        this.#thoughts.set(thought.id, thought);
        return [this.#thought(thought)];
      }
      case "subagent_start":
        return [this.#object("subagent_start", {
          agent_name: event.agentName,
          run_id: event.runId,
          task_description: event.taskDescription,
        })];
      case "subagent_end":
        return [this.#object("subagent_end", {
          agent_name: event.agentName,
          run_id: event.runId,
          status: event.status,
        })];
      case "interrupt": {
        const message = this.#redact(event.message);
        this.#waiting = { interrupt_id: event.interruptId, reason: "approval_required", message };
        return [this.#object("workflow_paused", {
          message,
          node_name: event.nodeName,
          interrupt_id: event.interruptId,
          data: redactValue(event.data, this.#redact),
        })];
      }
      case "usage":
        this.#usage = addUsage(this.#usage, event.usage);
        return [];
      case "error":
        if (event.recoverable) return [];
        this.#ended = true;
        return [this.#object("error", {
          status: 500,
          code: event.code,
          message: this.#redact(event.message),
        })];
      case "custom": {
        const payload = isRecord(event.payload) ? event.payload : { payload: event.payload };
        return [this.#object(event.name, payload)];
      }
      case "done":
        this.#ended = true;
        return [this.#object("message_end", {
          id: this.#ids.messageId,
          metadata: {
            usage: difyUsage(event.usage ?? this.#usage, latency(this.#startedAtMs, nowMs)),
            retriever_resources: [],
          },
          files: [],
        })];
      case "node_lifecycle":
        return [];
    }
  }

  /**
   * The blocking response after the stream's end (WIRE.md: agent-chat converter).
   *
   * @param nowMs the time now (epoch ms)
   * @returns the response body
   */
  blockingResponse(nowMs: number): Record<string, unknown> {
    const { taskId, messageId, conversationId, createdAt } = this.#ids;
    return {
      event: "message",
      task_id: taskId,
      id: messageId,
      message_id: messageId,
      conversation_id: conversationId,
      mode: "chat",
      answer: this.#answer,
      metadata: {
        usage: difyUsage(this.#usage, latency(this.#startedAtMs, nowMs)),
        retriever_resources: [],
        // Dify has no pause in a blocking answer: the wait is named here (see dify_routes.ts).
        ...(this.#waiting ? { waiting: this.#waiting } : {}),
      },
      created_at: createdAt,
    };
  }

  #object(event: string, fields: Record<string, unknown>): DifyObject {
    const { taskId, messageId, conversationId, createdAt } = this.#ids;
    // The converter's fields win over an entity's (a custom payload cannot rename the event).
    return {
      ...fields,
      event,
      task_id: taskId,
      message_id: messageId,
      conversation_id: conversationId,
      created_at: createdAt,
    };
  }

  #thought(thought: Thought): DifyObject {
    return this.#object("agent_thought", {
      id: thought.id,
      position: thought.position,
      thought: "",
      observation: thought.observation,
      tool: thought.tool,
      tool_labels: { [thought.tool]: { en_US: thought.tool, zh_Hans: thought.tool } },
      tool_input: toolInput(thought.tool, thought.args),
      message_files: [],
    });
  }
}

/**
 * Dify's `tool_input`: a JSON string `{"<tool>": <arguments>}`; arguments that are not
 * (yet) whole JSON are carried as their text.
 */
function toolInput(tool: string, args: string): string {
  let parsed: unknown = args;
  try {
    parsed = args === "" ? {} : JSON.parse(args);
  } catch {
    // Still streaming, or not JSON: the text as it is.
  }
  return JSON.stringify({ [tool]: parsed });
}

function latency(startedAtMs: number, nowMs: number): number {
  return Math.max(0, nowMs - startedAtMs) / 1000;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
