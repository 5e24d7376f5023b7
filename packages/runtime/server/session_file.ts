/**
 * `<home>/sessions.json`: the browser sessions, kept so that the app's cookie still works
 * after the runtime restarts (a crash must not sign the user out). Only the SHA-256 of
 * each cookie value and the token generation it was opened under are stored, never the
 * cookie itself; the file is owner-only (0600) and replaced atomically. A missing or
 * invalid file means no sessions: the user signs in again, nothing else is affected.
 *
 * @module
 */
import { writePrivateFile } from "./_private_file.ts";

const KEY_PATTERN = /^[0-9a-f]{64}$/;
const GENERATION_PATTERN = /^[0-9a-f]{32}$/;

/** One stored session. */
export interface StoredSession {
  /** SHA-256 (hex) of the cookie value. */
  key: string;
  /** The token generation the session was opened under. */
  generation: string;
}

/**
 * Reads the stored sessions (at startup, synchronously: the server is not yet answering).
 *
 * @param path the file
 * @param onWarning told why an existing file was ignored
 * @returns the valid entries, oldest first; none when the file is missing or invalid
 */
export function readSessionFile(
  path: string,
  onWarning: (message: string) => void,
): StoredSession[] {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      onWarning(`${path} cannot be read; browser sessions start empty`);
    }
    return [];
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!isRecord(parsed) || parsed.version !== 1 || !Array.isArray(parsed.sessions)) {
      throw new Error("unexpected shape");
    }
    return parsed.sessions.filter((entry): entry is StoredSession =>
      isRecord(entry) && typeof entry.key === "string" && KEY_PATTERN.test(entry.key) &&
      typeof entry.generation === "string" && GENERATION_PATTERN.test(entry.generation)
    ).map(({ key, generation }) => ({ key, generation }));
  } catch {
    onWarning(`${path} is not a valid sessions file; browser sessions start empty`);
    return [];
  }
}

/**
 * Writes the sessions file, one write at a time and always the latest state: saves
 * requested while a write runs collapse into one more write.
 */
export class SessionFileWriter {
  readonly #path: string;
  readonly #onWarning: (message: string) => void;
  #pending: StoredSession[] | null = null;
  #running: Promise<void> | null = null;

  /**
   * @param path the file
   * @param onWarning told when a write fails (sessions then live in memory only)
   */
  constructor(path: string, onWarning: (message: string) => void) {
    this.#path = path;
    this.#onWarning = onWarning;
  }

  /**
   * Schedules a write of `sessions`.
   *
   * @param sessions the whole current list
   */
  save(sessions: StoredSession[]): void {
    this.#pending = sessions;
    this.#running ??= this.#drain();
  }

  /** @returns when every requested write has finished (for shutdown and tests) */
  flushed(): Promise<void> {
    return this.#running ?? Promise.resolve();
  }

  async #drain(): Promise<void> {
    while (this.#pending !== null) {
      const sessions = this.#pending;
      this.#pending = null;
      try {
        await writePrivateFile(this.#path, `${JSON.stringify({ version: 1, sessions })}\n`, {
          overwrite: true,
        });
      } catch {
        this.#onWarning(`${this.#path} cannot be written; sessions last until the restart`);
      }
    }
    this.#running = null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
