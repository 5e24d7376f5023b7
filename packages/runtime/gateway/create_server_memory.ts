/**
 * The conversations of a `createServer` app, in memory and bounded: each belongs to the
 * Dify `user` that made it (another user's id is as good as unknown), keeps its newest
 * {@linkcode CREATE_SERVER_MESSAGES_PER_CONVERSATION_MAX} messages, and past
 * {@linkcode CREATE_SERVER_CONVERSATIONS_MAX} conversations the least recently used one
 * is dropped. Listing and paging follow Dify's `GET /conversations` and `GET /messages`.
 *
 * @module
 */
import type { AgentMessage } from "./create_server_agent.ts";
import {
  CREATE_SERVER_CONVERSATION_NAME_MAX_CHARS,
  CREATE_SERVER_CONVERSATIONS_MAX,
  CREATE_SERVER_MESSAGES_PER_CONVERSATION_MAX,
} from "./limits.ts";

/** One tool call of an answer, as Dify's `GET /messages` lists it. */
export interface DifyAgentThought {
  /** The tool call's id. */
  id: string;
  /** Always null (Dify's chains are not used). */
  chain_id: null;
  /** The answer's message id. */
  message_id: string;
  /** From 1, in call order. */
  position: number;
  /** The model's thought before the call (none here). */
  thought: string;
  /** The tool's name. */
  tool: string;
  /** `{"<tool>": <arguments>}` as a JSON string. */
  tool_input: string;
  /** When the call started (epoch seconds). */
  created_at: number;
  /** The tool's result. */
  observation: string;
  /** Always empty. */
  message_files: string[];
}

/** One query and its answer. */
export interface StoredMessage {
  /** The message id (the stream's `message_id`). */
  id: string;
  /** The user's query. */
  query: string;
  /** The answer (what was said before a stop or failure, too). */
  answer: string;
  /** The request's `inputs`. */
  inputs: Record<string, unknown>;
  /** The tool calls. */
  agentThoughts: DifyAgentThought[];
  /** When it was asked (epoch seconds). */
  createdAt: number;
}

/** One conversation. */
export interface StoredConversation {
  /** Its UUID. */
  id: string;
  /** The Dify user that made it. */
  user: string;
  /** Its first query, shortened. */
  name: string;
  /** The first request's `inputs` (Dify keeps a conversation's inputs from its start). */
  inputs: Record<string, unknown>;
  /** Epoch seconds. */
  createdAt: number;
  /** Epoch seconds of the last message. */
  updatedAt: number;
  /** Oldest first. */
  messages: StoredMessage[];
}

/** Dify's `sort_by` values for conversations. */
export type ConversationSort = "created_at" | "-created_at" | "updated_at" | "-updated_at";

/** A page, or why there is none (a cursor that names nothing). */
export type Page<T> =
  | { ok: true; data: T[]; hasMore: boolean }
  | { ok: false; message: string };

/** The bounds of a store; default the limits.ts values. */
export interface MemoryConversationLimits {
  /** Conversations kept. */
  conversations?: number;
  /** Messages kept per conversation. */
  messagesPerConversation?: number;
}

/** When a conversation was made and last used, as counters (seconds tie often). */
interface Ordered {
  created: number;
  order: number;
}

/** The store. */
export class MemoryConversations {
  // Insertion order is use order: a used conversation is moved to the end, so the first
  // entry is the one to drop.
  readonly #byId = new Map<string, StoredConversation & Ordered>();
  readonly #maxConversations: number;
  readonly #maxMessages: number;
  #order = 0;

  /**
   * Makes an empty store.
   *
   * @param limits the bounds
   */
  constructor(limits: MemoryConversationLimits = {}) {
    this.#maxConversations = limits.conversations ?? CREATE_SERVER_CONVERSATIONS_MAX;
    this.#maxMessages = limits.messagesPerConversation ??
      CREATE_SERVER_MESSAGES_PER_CONVERSATION_MAX;
  }

  /** How many conversations are kept. */
  get size(): number {
    return this.#byId.size;
  }

  /**
   * Starts a conversation (dropping the least recently used one past the limit).
   *
   * @param id its UUID
   * @param user its user
   * @param query its first query (its name)
   * @param inputs its first inputs
   * @param nowSeconds epoch seconds
   * @returns the conversation
   */
  create(
    id: string,
    user: string,
    query: string,
    inputs: Record<string, unknown>,
    nowSeconds: number,
  ): StoredConversation {
    const conversation = {
      id,
      user,
      name: [...query].slice(0, CREATE_SERVER_CONVERSATION_NAME_MAX_CHARS).join(""),
      inputs,
      createdAt: nowSeconds,
      updatedAt: nowSeconds,
      messages: [],
      created: ++this.#order,
      order: this.#order,
    };
    this.#byId.delete(id);
    this.#byId.set(id, conversation);
    while (this.#byId.size > this.#maxConversations) {
      this.#byId.delete(this.#byId.keys().next().value!);
    }
    return conversation;
  }

  /**
   * A conversation of a user.
   *
   * @param id its UUID
   * @param user who asks
   * @returns it, or null when there is none or it is another user's
   */
  get(id: string, user: string): StoredConversation | null {
    const conversation = this.#byId.get(id);
    return conversation && conversation.user === user ? conversation : null;
  }

  /**
   * Adds a message (dropping the oldest past the limit); the conversation becomes the most
   * recently used. A conversation dropped or deleted meanwhile is left alone.
   *
   * @param id the conversation's UUID
   * @param message the message
   * @param nowSeconds epoch seconds
   */
  addMessage(id: string, message: StoredMessage, nowSeconds: number): void {
    const conversation = this.#byId.get(id);
    if (!conversation) return;
    conversation.messages.push(message);
    if (conversation.messages.length > this.#maxMessages) {
      conversation.messages.splice(0, conversation.messages.length - this.#maxMessages);
    }
    conversation.updatedAt = nowSeconds;
    conversation.order = ++this.#order;
    this.#byId.delete(id);
    this.#byId.set(id, conversation);
  }

  /**
   * Deletes a user's conversation.
   *
   * @param id its UUID
   * @param user who asks
   * @returns false when there is none or it is another user's
   */
  delete(id: string, user: string): boolean {
    if (!this.get(id, user)) return false;
    return this.#byId.delete(id);
  }

  /**
   * The history an agent is given: each message's query and answer, oldest first.
   *
   * @param conversation the conversation
   * @returns the messages
   */
  history(conversation: StoredConversation): AgentMessage[] {
    return conversation.messages.flatMap((m): AgentMessage[] => [
      { role: "user", content: m.query },
      { role: "assistant", content: m.answer },
    ]);
  }

  /**
   * A page of a user's conversations (Dify: after `last_id`, in `sort_by` order).
   *
   * @param user whose
   * @param options cursor, page size, order
   * @returns the page, or "Last Conversation Not Exists." for an unknown `last_id`
   */
  list(
    user: string,
    options: { lastId?: string; limit: number; sortBy: ConversationSort },
  ): Page<StoredConversation> {
    const field = options.sortBy.replace("-", "") as "created_at" | "updated_at";
    const descending = options.sortBy.startsWith("-");
    const key = (c: StoredConversation & Ordered) =>
      field === "created_at" ? [c.createdAt, c.created] : [c.updatedAt, c.order];
    const mine = [...this.#byId.values()].filter((c) => c.user === user);
    mine.sort((a, b) => {
      // Seconds tie often; the counters break the tie.
      const [x, xo] = key(a);
      const [y, yo] = key(b);
      const order = x - y || xo - yo;
      return descending ? -order : order;
    });
    let from = 0;
    if (options.lastId) {
      const index = mine.findIndex((c) => c.id === options.lastId);
      if (index < 0) return { ok: false, message: "Last Conversation Not Exists." };
      from = index + 1;
    }
    return {
      ok: true,
      data: mine.slice(from, from + options.limit),
      hasMore: from + options.limit < mine.length,
    };
  }

  /**
   * A page of a conversation's messages (Dify: the newest `limit` before `first_id`,
   * oldest first within the page).
   *
   * @param conversation the conversation
   * @param options cursor and page size
   * @returns the page, or "First Message Not Exists." for an unknown `first_id`
   */
  messages(
    conversation: StoredConversation,
    options: { firstId?: string; limit: number },
  ): Page<StoredMessage> {
    const all = conversation.messages;
    let end = all.length;
    if (options.firstId) {
      end = all.findIndex((m) => m.id === options.firstId);
      if (end < 0) return { ok: false, message: "First Message Not Exists." };
    }
    const start = Math.max(0, end - options.limit);
    return { ok: true, data: all.slice(start, end), hasMore: start > 0 };
  }
}
