/**
 * Which app key and end user each gateway conversation, task and upload belongs to, in
 * `<home>/gateway_conversations.json` (mode 0600, written atomically). A conversation id
 * names a thread by its digits, so without this any key could open any thread, the
 * owner's included: a gateway request may continue only a thread its own key and user
 * made. Tasks (runs, for stop) and Dify uploads (for `local_file`) are kept with them so
 * they survive a restart, bounded in count and pruned by age (the runs of a day, uploads
 * of a day: see limits.ts); threads are kept as long as the file.
 *
 * @module
 */
import { z } from "zod";
import { writePrivateFile } from "../server/_private_file.ts";
import {
  DIFY_UPLOAD_KEEP_MS,
  DIFY_UPLOADS_MAX_COUNT,
  GATEWAY_KEYS_FILE_MAX_BYTES,
  GATEWAY_RUN_KEEP_MS,
  GATEWAY_RUNS_MAX_COUNT,
} from "./limits.ts";

/** Who a conversation or task belongs to. */
export interface ConversationOwner {
  /** The app key that made it. */
  keyId: string;
  /** The end user (Dify's `user`). */
  user: string;
}

/** A task (run) as remembered for stop. */
export interface GatewayRunRecord extends ConversationOwner {
  /** Its thread. */
  threadId: string;
  /** When it started (epoch ms), for pruning. */
  at: number;
}

/** A file uploaded through Dify's `POST /files/upload`. */
export interface GatewayUploadRecord extends ConversationOwner {
  /** The attachment as `turn.start` takes it. */
  attachment: { kind: "image" | "text"; path: string; mimeType: string };
  /** The name the client gave. */
  name: string;
  /** Its size (bytes). */
  size: number;
  /** When it was uploaded (epoch ms). */
  at: number;
}

const Owner = { keyId: z.string(), user: z.string() };
const OwnersFile = z.strictObject({
  version: z.literal(1),
  threads: z.record(z.string(), z.strictObject(Owner)),
  // Absent in files written before tasks and uploads were kept.
  runs: z.record(
    z.string(),
    z.strictObject({ ...Owner, threadId: z.string(), at: z.number() }),
  ).optional(),
  uploads: z.record(
    z.string(),
    z.strictObject({
      ...Owner,
      attachment: z.strictObject({
        kind: z.enum(["image", "text"]),
        path: z.string(),
        mimeType: z.string(),
      }),
      name: z.string(),
      size: z.number(),
      at: z.number(),
    }),
  ).optional(),
});

interface State {
  threads: Record<string, ConversationOwner>;
  runs: Record<string, GatewayRunRecord>;
  uploads: Record<string, GatewayUploadRecord>;
}

/** Options of {@linkcode ConversationOwners.open}. */
export interface ConversationOwnersOptions {
  /** The time (epoch ms); default `Date.now`. */
  now?: () => number;
  /** Most tasks kept; default {@linkcode GATEWAY_RUNS_MAX_COUNT} (tests use fewer). */
  maxRuns?: number;
}

/** The owners of gateway conversations, tasks and uploads. */
export class ConversationOwners {
  readonly #path: string;
  readonly #now: () => number;
  readonly #maxRuns: number;
  #state: State;
  #writing: Promise<unknown> = Promise.resolve();

  private constructor(path: string, state: State, options: ConversationOwnersOptions) {
    this.#path = path;
    this.#state = state;
    this.#now = options.now ?? Date.now;
    this.#maxRuns = options.maxRuns ?? GATEWAY_RUNS_MAX_COUNT;
  }

  /**
   * Opens the owners' file (missing: none yet).
   *
   * @param path `<home>/gateway_conversations.json`
   * @param options the clock
   * @returns the store
   * @throws {Error} when the file is unreadable, too large or not the expected JSON
   */
  static async open(
    path: string,
    options: ConversationOwnersOptions = {},
  ): Promise<ConversationOwners> {
    let text: string;
    try {
      if ((await Deno.stat(path)).size > GATEWAY_KEYS_FILE_MAX_BYTES) {
        throw new Error(`${path} is larger than ${GATEWAY_KEYS_FILE_MAX_BYTES} bytes`);
      }
      text = await Deno.readTextFile(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        return new ConversationOwners(path, { threads: {}, runs: {}, uploads: {} }, options);
      }
      throw error;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error(`${path} is not a gateway conversations file`);
    }
    const parsed = OwnersFile.safeParse(json);
    if (!parsed.success) throw new Error(`${path} is not a gateway conversations file`);
    const { threads, runs = {}, uploads = {} } = parsed.data;
    return new ConversationOwners(path, { threads, runs, uploads }, options);
  }

  /**
   * Whether a thread belongs to this key and user.
   *
   * @param threadId the thread
   * @param owner the caller
   * @returns true when both match
   */
  owns(threadId: string, owner: ConversationOwner): boolean {
    return sameOwner(this.#state.threads[threadId], owner);
  }

  /**
   * The threads of a key and user.
   *
   * @param owner the caller
   * @returns their thread ids
   */
  threadsOf(owner: ConversationOwner): string[] {
    return Object.entries(this.#state.threads)
      .filter(([, o]) => sameOwner(o, owner))
      .map(([id]) => id);
  }

  /**
   * Records a new thread's owner (before its id is answered to anyone).
   *
   * @param threadId the thread
   * @param owner the key and user
   */
  async addThread(threadId: string, owner: ConversationOwner): Promise<void> {
    const { keyId, user } = owner;
    await this.#commit((s) => ({ ...s, threads: { ...s.threads, [threadId]: { keyId, user } } }));
  }

  /**
   * Remembers a task's (run's) owner and thread, for stop, also after a restart.
   *
   * @param runId the run
   * @param threadId its thread
   * @param owner the key and user
   */
  async addRun(runId: string, threadId: string, owner: ConversationOwner): Promise<void> {
    const record = { keyId: owner.keyId, user: owner.user, threadId, at: this.#now() };
    await this.#commit((s) => ({ ...s, runs: { ...s.runs, [runId]: record } }));
  }

  /**
   * A task's owner and thread.
   *
   * @param runId the run
   * @returns them, or undefined for a task not made through the gateway or long forgotten
   */
  run(runId: string): GatewayRunRecord | undefined {
    const found = this.#state.runs[runId];
    return found && this.#now() - found.at <= GATEWAY_RUN_KEEP_MS ? found : undefined;
  }

  /**
   * Remembers an uploaded file under its Dify id.
   *
   * @param id the upload's id (a UUID)
   * @param record its owner, attachment, name and size (`at` is now)
   */
  async addUpload(id: string, record: Omit<GatewayUploadRecord, "at">): Promise<void> {
    const stored = { ...record, attachment: { ...record.attachment }, at: this.#now() };
    await this.#commit((s) => ({ ...s, uploads: { ...s.uploads, [id]: stored } }));
  }

  /**
   * An upload of this key and user.
   *
   * @param id the upload's id
   * @param owner the caller
   * @returns it, or undefined when unknown, someone else's or too old
   */
  upload(id: string, owner: ConversationOwner): GatewayUploadRecord | undefined {
    const found = this.#state.uploads[id];
    if (!found || !sameOwner(found, owner)) return undefined;
    return this.#now() - found.at <= DIFY_UPLOAD_KEEP_MS ? found : undefined;
  }

  /** Writes one change after the writes before it; the state changes once it is on disk. */
  async #commit(change: (state: State) => State): Promise<void> {
    const write = this.#writing.catch(() => {}).then(async () => {
      const next = this.#prune(change(this.#state));
      const { threads, runs, uploads } = next;
      await writePrivateFile(
        this.#path,
        JSON.stringify({ version: 1, threads, runs, uploads }) + "\n",
        { overwrite: true },
      );
      this.#state = next;
    });
    this.#writing = write;
    await write;
  }

  /** Drops old tasks and uploads, then the oldest beyond their counts. */
  #prune(state: State): State {
    const now = this.#now();
    return {
      threads: state.threads,
      runs: newest(state.runs, this.#maxRuns, (r) => now - r.at <= GATEWAY_RUN_KEEP_MS),
      uploads: newest(
        state.uploads,
        DIFY_UPLOADS_MAX_COUNT,
        (u) => now - u.at <= DIFY_UPLOAD_KEEP_MS,
      ),
    };
  }
}

function sameOwner(found: ConversationOwner | undefined, owner: ConversationOwner): boolean {
  return found !== undefined && found.keyId === owner.keyId && found.user === owner.user;
}

function newest<T extends { at: number }>(
  records: Record<string, T>,
  max: number,
  keep: (record: T) => boolean,
): Record<string, T> {
  const kept = Object.entries(records).filter(([, r]) => keep(r));
  kept.sort(([, a], [, b]) => b.at - a.at);
  return Object.fromEntries(kept.slice(0, max));
}
