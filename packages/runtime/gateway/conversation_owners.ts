/**
 * Which app key and end user each gateway conversation belongs to, in
 * `<home>/gateway_conversations.json` (mode 0600, written atomically). A conversation id
 * names a thread by its digits, so without this any key could open any thread, the
 * owner's included: a gateway request may continue only a thread its own key and user
 * made. Runs are remembered in memory only (stopping a task is for the stream in progress).
 *
 * @module
 */
import { z } from "zod";
import { writePrivateFile } from "../server/_private_file.ts";
import { GATEWAY_KEYS_FILE_MAX_BYTES } from "./limits.ts";

/** Who a conversation or task belongs to. */
export interface ConversationOwner {
  /** The app key that made it. */
  keyId: string;
  /** The end user (Dify's `user`). */
  user: string;
}

const OwnersFile = z.strictObject({
  version: z.literal(1),
  threads: z.record(z.string(), z.strictObject({ keyId: z.string(), user: z.string() })),
});

/** The owners of gateway conversations and tasks. */
export class ConversationOwners {
  readonly #path: string;
  #threads: Record<string, ConversationOwner>;
  readonly #runs = new Map<string, ConversationOwner & { threadId: string }>();
  #writing: Promise<unknown> = Promise.resolve();

  private constructor(path: string, threads: Record<string, ConversationOwner>) {
    this.#path = path;
    this.#threads = threads;
  }

  /**
   * Opens the owners' file (missing: none yet).
   *
   * @param path `<home>/gateway_conversations.json`
   * @returns the store
   * @throws {Error} when the file is unreadable, too large or not the expected JSON
   */
  static async open(path: string): Promise<ConversationOwners> {
    let text: string;
    try {
      if ((await Deno.stat(path)).size > GATEWAY_KEYS_FILE_MAX_BYTES) {
        throw new Error(`${path} is larger than ${GATEWAY_KEYS_FILE_MAX_BYTES} bytes`);
      }
      text = await Deno.readTextFile(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return new ConversationOwners(path, {});
      throw error;
    }
    const parsed = OwnersFile.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`${path} is not a gateway conversations file`);
    return new ConversationOwners(path, parsed.data.threads);
  }

  /**
   * Whether a thread belongs to this key and user.
   *
   * @param threadId the thread
   * @param owner the caller
   * @returns true when both match
   */
  owns(threadId: string, owner: ConversationOwner): boolean {
    const found = this.#threads[threadId];
    return found !== undefined && found.keyId === owner.keyId && found.user === owner.user;
  }

  /**
   * The threads of a key and user.
   *
   * @param owner the caller
   * @returns their thread ids
   */
  threadsOf(owner: ConversationOwner): string[] {
    return Object.entries(this.#threads)
      .filter(([, o]) => o.keyId === owner.keyId && o.user === owner.user)
      .map(([id]) => id);
  }

  /**
   * Records a new thread's owner (before its id is answered to anyone).
   *
   * @param threadId the thread
   * @param owner the key and user
   */
  async addThread(threadId: string, owner: ConversationOwner): Promise<void> {
    const threads = { ...this.#threads, [threadId]: { ...owner } };
    const write = this.#writing.catch(() => {}).then(() =>
      writePrivateFile(this.#path, JSON.stringify({ version: 1, threads }) + "\n", {
        overwrite: true,
      })
    );
    this.#writing = write;
    await write;
    this.#threads = threads;
  }

  /**
   * Remembers a task's (run's) owner and thread, for stop.
   *
   * @param runId the run
   * @param threadId its thread
   * @param owner the key and user
   */
  addRun(runId: string, threadId: string, owner: ConversationOwner): void {
    this.#runs.set(runId, { ...owner, threadId });
  }

  /**
   * A task's owner and thread.
   *
   * @param runId the run
   * @returns them, or undefined for a task this runtime did not start since it started
   */
  run(runId: string): (ConversationOwner & { threadId: string }) | undefined {
    return this.#runs.get(runId);
  }
}
