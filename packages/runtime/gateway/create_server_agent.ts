/**
 * The agent side of `createServer`: what an agent function is called with, and the
 * canonical event stream made of what it yields (strings become text deltas, a `done` is
 * added when it returns, an `error` when it throws, nothing more once its signal aborted).
 *
 * @module
 */
import type { CanonicalEvent } from "@daedalus/protocol";

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
  /** The conversation before this message (the newest messages a server keeps). */
  messages: AgentMessage[];
  /** Dify's `inputs` (AG-UI: `forwardedProps`). */
  inputs: Record<string, unknown>;
  /** Aborted by a stop or a client that went away. */
  signal: AbortSignal;
  /** Dify's `user`; absent on AG-UI, which has no user. */
  user?: string;
  /** The agent an AG-UI client named (`POST /ag-ui/:agent`); absent otherwise. */
  agent?: string;
}

/** The agent function: yields answer text or canonical events. */
export type InvokeAgent = (request: AgentRequest) => AsyncIterable<string | CanonicalEvent>;

/** What a finished (or failed, or stopped) answer left, for the conversation's history. */
export interface AgentOutcome {
  /** All text deltas, joined. */
  answer: string;
}

/**
 * The canonical events of one call of the agent.
 *
 * @param invokeAgent the agent
 * @param request what it is called with
 * @param messageId the id of the answer's text deltas made of strings
 * @param onEnd told once, when the agent returned, threw or was stopped
 * @returns the events, ending with `done` or a fatal `error`
 */
export async function* agentEvents(
  invokeAgent: InvokeAgent,
  request: AgentRequest,
  messageId: string,
  onEnd: (outcome: AgentOutcome) => void,
): AsyncGenerator<CanonicalEvent> {
  let answer = "";
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    onEnd({ answer });
  };
  try {
    for await (const item of invokeAgent(request)) {
      if (request.signal.aborted) break;
      const event: CanonicalEvent = typeof item === "string"
        ? { type: "text_delta", messageId, delta: item }
        : item;
      if (event.type === "text_delta") answer += event.delta;
      if (event.type === "text_delta" && event.delta === "") continue;
      if (event.type === "done") {
        end();
        yield event;
        return;
      }
      yield event;
    }
    end();
    yield {
      type: "done",
      status: request.signal.aborted ? "cancelled" : "completed",
      usage: null,
    };
  } catch (error) {
    end();
    const message = error instanceof Error ? error.message : String(error);
    yield { type: "error", code: "agent_error", message, recoverable: false };
  } finally {
    // A consumer that stopped reading (a client gone) still records what was said.
    end();
  }
}
