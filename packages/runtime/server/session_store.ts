/**
 * Browser sessions, as the session cookie names them: created when a login code or the
 * token is traded (`auth.ts`), checked on every cookie-authenticated request, kept in
 * `sessions.json` across restarts (`session_file.ts`).
 *
 * @module
 */
import { createHash } from "node:crypto";
import { readSessionFile, SessionFileWriter } from "./session_file.ts";
import { SESSIONS_MAX_COUNT } from "./limits.ts";

const SESSION_ID_PATTERN = /^[0-9a-f]{64}$/;

/** Options of {@linkcode SessionStore}. */
export interface SessionStoreOptions {
  /** Live sessions kept before the oldest is dropped. */
  maxCount?: number;
  /** `sessions.json` to load at start and keep current; in memory only without one. */
  file?: string;
  /** Told when the file is ignored or cannot be written. */
  onWarning?: (message: string) => void;
  /** Told each new session id (the cookie value, a secret) as it is issued. */
  onSecretIssued?: (secret: string) => void;
}

/**
 * Browser sessions: a random id (the cookie value) bound to the token generation it
 * was issued under. Stored by the SHA-256 of the id, so lookups never compare the
 * secret itself. With a `file`, they survive restarts (see `session_file.ts`); a
 * rotation ends every session.
 */
export class SessionStore {
  readonly #sessions = new Map<string, string>();
  readonly #maxCount: number;
  readonly #writer: SessionFileWriter | null;
  readonly #onSecretIssued: (secret: string) => void;

  /**
   * Makes the store, loading `options.file` when given.
   *
   * @param options the limit and the file
   */
  constructor(options: SessionStoreOptions = {}) {
    this.#maxCount = options.maxCount ?? SESSIONS_MAX_COUNT;
    this.#onSecretIssued = options.onSecretIssued ?? (() => {});
    const onWarning = options.onWarning ?? ((message) => console.error(`auth: ${message}`));
    this.#writer = options.file ? new SessionFileWriter(options.file, onWarning) : null;
    if (options.file) {
      for (const { key, generation } of readSessionFile(options.file, onWarning)) {
        this.#sessions.set(key, generation);
      }
      this.#evictOverflow();
    }
  }

  /** @returns when the file reflects every change so far */
  flushed(): Promise<void> {
    return this.#writer?.flushed() ?? Promise.resolve();
  }

  /** How many sessions are live. */
  get size(): number {
    return this.#sessions.size;
  }

  /**
   * Opens a session.
   *
   * @param generation the token generation the caller proved
   * @returns the session id for the cookie
   */
  create(generation: string): string {
    const id = randomHex(32);
    this.#onSecretIssued(id);
    this.#sessions.set(sessionKeyOf(id), generation);
    this.#evictOverflow();
    this.#save();
    return id;
  }

  /**
   * Finds a live session opened under `generation`.
   *
   * @param sessionId the cookie value
   * @param generation the current token generation
   * @returns the session's key, or null when unknown or opened under an older token
   */
  resolve(sessionId: string, generation: string): string | null {
    if (!SESSION_ID_PATTERN.test(sessionId)) return null;
    const key = sessionKeyOf(sessionId);
    const bound = this.#sessions.get(key);
    if (bound === undefined) return null;
    if (bound === generation) return key;
    this.#sessions.delete(key);
    this.#save();
    return null;
  }

  /**
   * Whether the session with this key is still live under `generation`.
   *
   * @param sessionKey the key {@linkcode resolve} returned
   * @param generation the current token generation
   * @returns true while neither logged out nor rotated away
   */
  isLive(sessionKey: string, generation: string): boolean {
    return this.#sessions.get(sessionKey) === generation;
  }

  /**
   * Ends a session.
   *
   * @param sessionId the cookie value
   * @returns the session's key when it was live, else null
   */
  revoke(sessionId: string): string | null {
    if (!SESSION_ID_PATTERN.test(sessionId)) return null;
    const key = sessionKeyOf(sessionId);
    if (!this.#sessions.delete(key)) return null;
    this.#save();
    return key;
  }

  /**
   * Ends every session not opened under `generation` (after a rotation).
   *
   * @param generation the current generation, or null to end them all
   */
  dropOtherGenerations(generation: string | null): void {
    const before = this.#sessions.size;
    for (const [key, bound] of this.#sessions) {
      if (bound !== generation) this.#sessions.delete(key);
    }
    if (this.#sessions.size !== before) this.#save();
  }

  #evictOverflow(): void {
    for (const key of this.#sessions.keys()) {
      if (this.#sessions.size <= this.#maxCount) break;
      this.#sessions.delete(key);
    }
  }

  #save(): void {
    this.#writer?.save(
      [...this.#sessions].map(([key, generation]) => ({ key, generation })),
    );
  }
}

function sessionKeyOf(sessionId: string): string {
  return createHash("sha256").update(sessionId).digest("hex");
}

function randomHex(byteCount: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(byteCount));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
