/**
 * The retained output of one managed process: `<root>/<threadId>/<processId>.log` plus a
 * `<processId>.json` metadata file. Output is appended (by the runtime, or by the child
 * itself through an `O_APPEND` redirection); once the file would exceed
 * {@linkcode PROCESS_LOG_WINDOW_BYTES} it is folded in place, keeping the head half and the
 * newest tail and replacing the middle with a `... N bytes omitted ...` line. Cursors are
 * absolute byte offsets into the logical output stream; the fold layout kept in the .json
 * maps them to file offsets, so they stay valid across folds and runtime restarts.
 *
 * @module
 */
import {
  PROCESS_LOG_WINDOW_BYTES,
  PROCESS_MASK_CONTEXT_BYTES,
  PROCESS_PAGE_MAX_BYTES,
} from "./limits.ts";
import { ProcessError } from "./process_error.ts";

const SAFE_ID = (prefix: string) => new RegExp(`^${prefix}_[0-9a-f]{32}$`);
const THREAD_ID = SAFE_ID("thread");
const PROCESS_ID = SAFE_ID("process");
const SMALLEST_PAGE_BYTES = 4; // one UTF-8 character always fits

/** Where a process's files live. */
export interface ProcessLogPaths {
  /** `<root>/<threadId>` */
  dir: string;
  /** The output file. */
  log: string;
  /** The metadata file. */
  meta: string;
  /** Written by the command wrapper with the exit code, so it survives a runtime crash. */
  exit: string;
}

/**
 * The paths of one process's files, after checking both ids are safe path segments.
 *
 * @param root the processes root (`<home>/processes`)
 * @param threadId `thread_` + 32 hex digits
 * @param processId `process_` + 32 hex digits
 * @returns the paths
 * @throws {ProcessError} `invalid_id` when an id is not a safe segment
 */
export function processLogPaths(root: string, threadId: string, processId: string) {
  if (!THREAD_ID.test(threadId)) throw new ProcessError("invalid_id", `Invalid thread id`);
  if (!PROCESS_ID.test(processId)) throw new ProcessError("invalid_id", `Invalid process id`);
  const dir = `${root.replace(/\/+$/, "")}/${threadId}`;
  const base = `${dir}/${processId}`;
  return { dir, log: `${base}.log`, meta: `${base}.json`, exit: `${base}.exit` };
}

/** How logical stream offsets map to the file. Never folded: all zero (identity). */
export interface ProcessLogLayout {
  /** Logical bytes kept at the start of the file. */
  headBytes: number;
  /** Logical offset of the first retained tail byte (`headBytes` + omitted bytes). */
  tailStart: number;
  /** File offset of the first retained tail byte (after the marker line). */
  tailFileOffset: number;
}

/** One page of output. */
export interface ProcessLogPage {
  /** Decoded text (whole UTF-8 characters only). */
  output: string;
  /** The logical offset the page starts at. */
  cursor: number;
  /** Where the next page starts. */
  nextCursor: number;
  /** Whether output beyond `nextCursor` exists now. */
  hasMore: boolean;
  /** Whether this page stands for omitted bytes (the fold marker). */
  truncated: boolean;
}

/**
 * The marker line that stands for folded-out bytes.
 *
 * @param omitted how many bytes were dropped
 * @returns the line, with surrounding newlines
 */
export function omittedMarker(omitted: number): string {
  return `\n... ${omitted} bytes omitted ...\n`;
}

const isContinuation = (byte: number) => (byte & 0xc0) === 0x80;

/** Bytes at the end of `bytes` that start a character not yet complete. */
function incompleteTail(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back];
    if (isContinuation(byte)) continue;
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? back : 0;
  }
  return 0;
}

/**
 * Holds a child that writes the log itself still while a fold cuts the file (`SIGSTOP` and
 * `SIGCONT` to its process group); null when nothing else writes it.
 */
export interface WriterPause {
  /** Stops the writer. */
  pause(): void;
  /** Lets it go on. */
  resume(): void;
}

/** A paused writer's in-flight write(2) finishes within microseconds; look a few times. */
const PAUSE_SETTLE_MS = 2;
const PAUSE_SETTLE_LOOKS = 5;

/** The retained output of one process; every operation is serialized. */
export class ProcessLog {
  /** The files. */
  readonly paths: ProcessLogPaths;
  /** Metadata kept beside the log (the owner's fields plus `layout`). */
  meta: Record<string, unknown>;
  #file: Deno.FsFile;
  #layout: ProcessLogLayout;
  #size = 0;
  #queue: Promise<unknown> = Promise.resolve();
  #window: number;
  #closed = false;
  #maskOutput: ((bytes: Uint8Array) => Uint8Array | null) | null = null;
  #pauseWriter: () => WriterPause | null = () => null;
  /** File offset up to which output was masked. */
  #maskedUpTo = 0;

  private constructor(
    paths: ProcessLogPaths,
    file: Deno.FsFile,
    meta: Record<string, unknown>,
    window: number,
  ) {
    this.paths = paths;
    this.#file = file;
    this.meta = meta;
    this.#window = window;
    this.#layout = readLayout(meta.layout);
  }

  /**
   * Opens (creating when missing) a process's log and metadata.
   *
   * @param options the root, ids, and (for tests) a smaller window
   * @returns the log
   * @throws {ProcessError} `invalid_id`
   */
  static async open(options: {
    root: string;
    threadId: string;
    processId: string;
    windowBytes?: number;
    maskOutput?: (bytes: Uint8Array) => Uint8Array | null;
    pauseWriter?: () => WriterPause | null;
  }): Promise<ProcessLog> {
    const paths = processLogPaths(options.root, options.threadId, options.processId);
    await Deno.mkdir(paths.dir, { recursive: true });
    const file = await Deno.open(paths.log, { read: true, write: true, create: true });
    let meta: Record<string, unknown> = {};
    try {
      meta = JSON.parse(await Deno.readTextFile(paths.meta));
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) {
        file.close();
        throw error;
      }
    }
    const log = new ProcessLog(paths, file, meta, options.windowBytes ?? PROCESS_LOG_WINDOW_BYTES);
    log.#size = (await file.stat()).size;
    log.#maskOutput = options.maskOutput ?? null;
    log.#pauseWriter = options.pauseWriter ?? (() => null);
    return log;
  }

  /** The current fold layout. */
  get layout(): ProcessLogLayout {
    return { ...this.#layout };
  }

  /** Logical bytes written so far (as of the last operation). */
  get totalBytes(): number {
    return this.#layout.tailStart + (this.#size - this.#layout.tailFileOffset);
  }

  /**
   * Appends output written by the runtime (PTY streams), folding when needed.
   *
   * @param bytes the output
   * @returns logical bytes written so far
   */
  append(bytes: Uint8Array): Promise<number> {
    return this.#serial(async () => {
      // Closed: the runtime stops, and the child's output goes on in its own log file.
      if (this.#closed) return this.totalBytes;
      const size = (await this.#file.stat()).size;
      await this.#writeAt(size, bytes);
      return await this.#syncNow();
    });
  }

  /**
   * Picks up output the child appended to the file itself and folds when over the window.
   *
   * @returns logical bytes written so far
   */
  sync(): Promise<number> {
    // Closed (the runtime stops): a follow timer's last tick reads nothing more.
    return this.#serial(() => this.#closed ? Promise.resolve(this.totalBytes) : this.#syncNow());
  }

  /**
   * Reads a page of output at a logical cursor, cut on UTF-8 boundaries. A cursor inside the
   * omitted range returns the marker and a `nextCursor` at the retained tail.
   *
   * @param cursor absolute byte offset into the output stream
   * @param limit page size in bytes, at most {@linkcode PROCESS_PAGE_MAX_BYTES}
   * @returns the page
   */
  readPage(cursor: number, limit: number = PROCESS_PAGE_MAX_BYTES): Promise<ProcessLogPage> {
    return this.#serial(async () => {
      const total = await this.#syncNow();
      const size = Math.max(SMALLEST_PAGE_BYTES, Math.min(PROCESS_PAGE_MAX_BYTES, limit));
      const at = Math.max(0, Math.min(Math.trunc(cursor), total));
      const { headBytes, tailStart } = this.#layout;
      if (at >= headBytes && at < tailStart) {
        const output = omittedMarker(tailStart - headBytes);
        return { output, cursor: at, nextCursor: tailStart, hasMore: true, truncated: true };
      }
      const end = Math.min(at < headBytes ? headBytes : total, at + size);
      let bytes = await this.#readAt(this.#fileOffset(at), end - at);
      let skip = 0;
      while (skip < bytes.length && skip < 3 && isContinuation(bytes[skip])) skip++;
      const cut = incompleteTail(bytes.subarray(skip));
      bytes = bytes.subarray(skip, bytes.length - cut);
      const nextCursor = at + skip + bytes.length;
      const output = new TextDecoder().decode(bytes);
      return { output, cursor: at, nextCursor, hasMore: nextCursor < total, truncated: false };
    });
  }

  /**
   * Persists `meta` (with the layout) atomically; after {@linkcode ProcessLog.close} only
   * `meta` changes (nothing is written).
   *
   * @param patch fields to merge into `meta` first
   */
  saveMeta(patch: Record<string, unknown> = {}): Promise<void> {
    return this.#serial(async () => {
      Object.assign(this.meta, patch);
      // Closed: the runtime is stopping and the next one's recovery records what happened
      // since; writing now could land in a home that is being removed.
      if (this.#closed) return;
      await this.#writeMeta();
    });
  }

  /** Releases the file handle (the files stay). */
  async close(): Promise<void> {
    await this.#serial(() => Promise.resolve());
    if (this.#closed) return;
    this.#closed = true;
    this.#file.close();
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  #fileOffset(logical: number): number {
    const { headBytes, tailStart, tailFileOffset } = this.#layout;
    return logical < headBytes ? logical : tailFileOffset + (logical - tailStart);
  }

  async #syncNow(): Promise<number> {
    this.#size = (await this.#file.stat()).size;
    if (this.#size <= this.#window) {
      await this.#maskRange(this.#maskedUpTo, this.#size);
      return this.totalBytes;
    }
    // Only what the fold keeps is masked: the head (within the first window) and the
    // newest window; a flood of output is never read whole.
    const size = this.#size;
    const newest = Math.max(this.#maskedUpTo, size - this.#window);
    await this.#maskRange(this.#maskedUpTo, Math.min(newest, this.#window));
    await this.#maskRange(newest, size);
    const maskedLogical = this.#logical(size);
    await this.#fold();
    // The kept tail moved down, masked; the child may have appended after it meanwhile.
    this.#maskedUpTo = this.#fileOffset(maskedLogical);
    await this.#maskRange(this.#maskedUpTo, this.#size);
    return this.totalBytes;
  }

  /**
   * Masks credentials in file bytes `[from, to)`, with some bytes before them so a
   * credential written across two looks is seen whole; then `[0, to)` counts as masked.
   * The masked text has the same length, so cursors and the fold layout stay valid.
   */
  async #maskRange(from: number, to: number): Promise<void> {
    if (this.#maskOutput === null || to <= from) return;
    const start = Math.max(0, from - PROCESS_MASK_CONTEXT_BYTES);
    const bytes = await this.#readAt(start, to - start);
    const masked = this.#maskOutput(bytes);
    if (masked !== null && masked.length === bytes.length) {
      let first = 0;
      while (first < bytes.length && bytes[first] === masked[first]) first++;
      let last = bytes.length;
      while (last > first && bytes[last - 1] === masked[last - 1]) last--;
      if (first < last) await this.#writeAt(start + first, masked.subarray(first, last));
    }
    this.#maskedUpTo = Math.max(this.#maskedUpTo, to);
  }

  async #fold(): Promise<void> {
    let size = this.#size;
    const folded = this.#layout.tailStart > 0;
    const headBytes = folded ? this.#layout.headBytes : await this.#headCut();
    let marker = omittedMarker(0);
    let tailFileStart = size;
    for (let attempt = 0; attempt < 3; attempt++) {
      // one byte of slack: the marker can grow by a digit when the tail start moves to a boundary
      tailFileStart = size - (this.#window - headBytes - marker.length - 1);
      const next = omittedMarker(this.#logical(tailFileStart) - headBytes);
      if (next.length === marker.length) break;
      marker = next;
    }
    let tail = await this.#readAt(tailFileStart, size - tailFileStart);
    let skip = 0;
    while (skip < tail.length && skip < 3 && isContinuation(tail[skip])) skip++;
    tail = tail.subarray(skip);
    const tailStart = this.#logical(tailFileStart + skip);
    marker = omittedMarker(tailStart - headBytes);
    const markerBytes = new TextEncoder().encode(marker);
    await this.#writeAt(headBytes, markerBytes);
    await this.#writeAt(headBytes + markerBytes.length, tail);
    let end = headBytes + markerBytes.length + tail.length;
    // The child may have appended meanwhile (O_APPEND lands past `size`): move it down too.
    // A write landing between the last look and the truncate would be cut off, so a child
    // still writing is paused for that last step (logrotate's copytruncate loses it instead).
    const writer = this.#pauseWriter();
    writer?.pause();
    try {
      if (writer) await this.#untilStill();
      for (;;) {
        const now = (await this.#file.stat()).size;
        if (now <= size) break;
        const extra = await this.#readAt(size, now - size);
        await this.#writeAt(end, extra);
        end += extra.length;
        size = now;
      }
      await this.#file.truncate(end);
    } finally {
      writer?.resume();
    }
    this.#size = end;
    this.#layout = { headBytes, tailStart, tailFileOffset: headBytes + markerBytes.length };
    await this.#writeMeta();
  }

  /** Waits until the file stops growing: a paused writer's last write(2) has landed. */
  async #untilStill(): Promise<void> {
    let last = (await this.#file.stat()).size;
    for (let look = 0; look < PAUSE_SETTLE_LOOKS; look++) {
      await new Promise((resolve) => setTimeout(resolve, PAUSE_SETTLE_MS));
      const now = (await this.#file.stat()).size;
      if (now === last) return;
      last = now;
    }
  }

  #logical(fileOffset: number): number {
    const { headBytes, tailStart, tailFileOffset } = this.#layout;
    if (tailStart === 0) return fileOffset;
    return fileOffset < headBytes ? fileOffset : tailStart + (fileOffset - tailFileOffset);
  }

  /** Half the window, moved back to a character boundary. */
  async #headCut(): Promise<number> {
    const half = Math.floor(this.#window / 2);
    const around = await this.#readAt(half - 3, 4);
    let cut = half;
    for (let i = around.length - 1; i >= 0 && isContinuation(around[i]); i--) cut--;
    return cut;
  }

  async #readAt(offset: number, length: number): Promise<Uint8Array> {
    const buffer = new Uint8Array(Math.max(0, length));
    await this.#file.seek(offset, Deno.SeekMode.Start);
    let filled = 0;
    while (filled < buffer.length) {
      const read = await this.#file.read(buffer.subarray(filled));
      if (read === null || read === 0) break;
      filled += read;
    }
    return buffer.subarray(0, filled);
  }

  async #writeAt(offset: number, bytes: Uint8Array): Promise<void> {
    await this.#file.seek(offset, Deno.SeekMode.Start);
    let written = 0;
    while (written < bytes.length) written += await this.#file.write(bytes.subarray(written));
  }

  async #writeMeta(): Promise<void> {
    this.meta.layout = this.#layout;
    const temp = `${this.paths.meta}.tmp`;
    await Deno.writeTextFile(temp, JSON.stringify(this.meta, null, 2) + "\n");
    await Deno.rename(temp, this.paths.meta);
  }
}

function readLayout(value: unknown): ProcessLogLayout {
  const layout = value as Partial<ProcessLogLayout> | undefined;
  const numbers = [layout?.headBytes, layout?.tailStart, layout?.tailFileOffset];
  if (numbers.every((n) => typeof n === "number" && Number.isSafeInteger(n) && n >= 0)) {
    return layout as ProcessLogLayout;
  }
  return { headBytes: 0, tailStart: 0, tailFileOffset: 0 };
}
