/**
 * The process manager: starts commands in their own process group with their output in a
 * folded log, reports {@linkcode ProcessRecord}s (throttled while output changes, immediately
 * on state changes), reads/waits/stops/writes/resizes, supervises restarts, and re-adopts
 * live processes after a runtime restart (custody: pid + start time within ± 5 s).
 *
 * @module
 */
import { newId } from "@daedalus/protocol";
import type { ProcessOutputPage, ProcessRecord } from "@daedalus/protocol";
import * as limits from "./limits.ts";
import { ProcessError } from "./process_error.ts";
import { ProcessLog, processLogPaths, type WriterPause } from "./process_log.ts";
import { posixPlatform } from "./_spawn.ts";
import { windowsPlatform } from "./_spawn_windows.ts";
import type { ProcessPlatform } from "./_platform.ts";

/** Restart policy. */
export type SupervisePolicy = "always" | "on-failure";

/** Options of {@linkcode ProcessManager}. */
export interface ProcessManagerOptions {
  /** `<home>/processes`. */
  processesRoot: string;
  /**
   * Inherited variable names (default the platform's: `ENV_ALLOW_LIST` on POSIX;
   * `LC_*` always kept).
   */
  envAllowList?: readonly string[];
  /** The operating-system adapter (default: Windows' on Windows, else POSIX; tests fake it). */
  platform?: ProcessPlatform;
  /** The environment to filter (default `Deno.env.toObject()`). */
  sourceEnv?: Record<string, string>;
  /** Receives every record change. */
  onRecord?: (record: ProcessRecord) => void;
  /**
   * Masks credentials in new output before it stays in the log (same length, so cursors
   * hold): returns the masked copy, or null when nothing was found.
   */
  maskOutput?: (bytes: Uint8Array) => Uint8Array | null;
  /** First supervise backoff (tests shrink it). */
  superviseBackoffMs?: number;
  /** SIGTERM grace before SIGKILL. */
  stopGraceMs?: number;
  /** Log polling interval. */
  followIntervalMs?: number;
}

/** What to start. */
export interface StartProcessOptions {
  /** Owning thread (a safe id: it names the log folder). */
  threadId: string;
  /** The run that started it. */
  runId: string;
  /** The tool_call item that started it. */
  itemId: string;
  /** Shell command text, run by `/bin/sh -c` (on Windows by `cmd.exe /c`). */
  command: string;
  /** Working directory (absolute). */
  cwd: string;
  /** Whether the run may finish while it runs (default false). */
  background?: boolean;
  /** Run under a pseudo-terminal (default false). */
  pty?: boolean;
  /** Restart policy (not for PTY commands). */
  supervise?: SupervisePolicy;
  /** Initial terminal columns (PTY, default 120). */
  cols?: number;
  /** Initial terminal rows (PTY, default 40). */
  rows?: number;
}

type Timer = ReturnType<typeof setTimeout>;

interface Managed {
  record: ProcessRecord;
  log: ProcessLog;
  spec: StartProcessOptions;
  child: Deno.ChildProcess | null;
  stdin: WritableStreamDefaultWriter<Uint8Array> | null;
  pump: Promise<unknown>;
  recovered: boolean;
  stopping: boolean;
  restarts: number[];
  timers: { follow?: Timer; record?: Timer; backoff?: Timer };
  lastRecordAt: number;
  outputBytes: number;
  ticks: number;
  settled: Promise<void>;
  settle: () => void;
}

const now = () => new Date().toISOString();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Owns every managed process of one runtime. */
export class ProcessManager {
  #options:
    & Required<Omit<ProcessManagerOptions, "onRecord" | "maskOutput">>
    & ProcessManagerOptions;
  #processes = new Map<string, Managed>();
  #closed = false;

  /**
   * Makes a manager; nothing runs until {@linkcode ProcessManager.start} or `recover`.
   *
   * @param options root, environment, record sink, test knobs
   */
  constructor(options: ProcessManagerOptions) {
    const platform = options.platform ??
      (Deno.build.os === "windows" ? windowsPlatform() : posixPlatform);
    this.#options = {
      platform,
      envAllowList: platform.envAllowList,
      sourceEnv: Deno.env.toObject(),
      superviseBackoffMs: limits.SUPERVISE_BACKOFF_BASE_MS,
      stopGraceMs: limits.PROCESS_STOP_GRACE_MS,
      followIntervalMs: limits.PROCESS_FOLLOW_INTERVAL_MS,
      ...options,
    };
  }

  /**
   * Starts a command.
   *
   * @param options ids, command, cwd, flags
   * @returns the first record (state `running`)
   * @throws {ProcessError} `invalid_id`, `process_limit`, `pty_unavailable`, `spawn_failed`,
   * `supervise_unavailable` (PTY commands are not supervised)
   */
  async start(options: StartProcessOptions): Promise<ProcessRecord> {
    const processId = newId("process");
    processLogPaths(this.#options.processesRoot, options.threadId, processId);
    const running = [...this.#processes.values()].filter((m) =>
      m.record.threadId === options.threadId && m.record.state === "running"
    );
    if (running.length >= limits.PROCESS_MAX_PER_THREAD) {
      throw new ProcessError("process_limit", "The thread already runs 64 processes");
    }
    if (options.pty && options.supervise) {
      throw new ProcessError(
        "supervise_unavailable",
        "Commands under a terminal are not supervised",
      );
    }
    const owner: { managed?: Managed } = {}; // known once tracked, after the log is open
    const log = await ProcessLog.open({
      root: this.#options.processesRoot,
      threadId: options.threadId,
      processId,
      maskOutput: this.#options.maskOutput,
      pauseWriter: () => writerPause(owner.managed, this.#options.platform),
    });
    const record: ProcessRecord = {
      processId,
      threadId: options.threadId,
      runId: options.runId,
      itemId: options.itemId,
      command: options.command,
      cwd: options.cwd,
      state: "running",
      pid: null,
      exitCode: null,
      errorCode: null,
      background: options.background ?? false,
      pty: options.pty ?? false,
      startedAt: now(),
      finishedAt: null,
      supervise: options.supervise ?? null,
      restartCount: 0,
      lastRestartAt: null,
      outputBytes: 0,
    };
    const managed = this.#track(record, log, options, false);
    owner.managed = managed;
    try {
      await this.#spawn(managed);
    } catch (error) {
      this.#processes.delete(processId);
      await log.close();
      throw error;
    }
    this.#follow(managed);
    await this.#emit(managed);
    return { ...record };
  }

  /**
   * Reads a page of output with the process's state.
   *
   * @param processId the process
   * @param cursor absolute byte offset (0 for the start)
   * @param limit bytes, at most 16 KiB
   * @returns the page
   * @throws {ProcessError} `process_not_found`, `manager_closed`
   */
  async read(processId: string, cursor = 0, limit?: number): Promise<ProcessOutputPage> {
    const managed = this.#get(processId);
    const page = await managed.log.readPage(cursor, limit);
    const { state, exitCode, cwd, pid, startedAt, finishedAt, errorCode } = managed.record;
    return { processId, state, exitCode, cwd, pid, startedAt, finishedAt, errorCode, ...page };
  }

  /**
   * Waits until the process settles (leaves `running`), the timeout passes or `signal` aborts.
   *
   * @param processId the process
   * @param timeoutMs how long to wait
   * @param signal cancellation
   * @returns the latest record and whether it is still running
   */
  async wait(
    processId: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<{ record: ProcessRecord; timedOut: boolean }> {
    const managed = this.#get(processId);
    let timer: Timer | undefined;
    let onAbort = () => {};
    const cut = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      onAbort = () => resolve();
      signal?.addEventListener("abort", onAbort, { once: true });
    });
    await Promise.race([managed.settled, cut]);
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
    return { record: { ...managed.record }, timedOut: managed.record.state === "running" };
  }

  /**
   * Stops a process tree: SIGTERM to its group, SIGKILL after the grace period, then drains.
   * Ends supervision.
   *
   * @param processId the process
   * @returns the final record (state `terminated` unless it had already ended)
   */
  async stop(processId: string): Promise<ProcessRecord> {
    const managed = this.#get(processId);
    if (managed.record.state !== "running") return { ...managed.record };
    managed.stopping = true;
    const pid = managed.record.pid;
    if (pid === null) {
      await this.#finish(managed, "terminated", null, "terminated"); // between supervise restarts
      return { ...managed.record };
    }
    const platform = this.#options.platform;
    await platform.signalTree(pid, "terminate");
    const gone = managed.child
      ? managed.child.status.then(() => true)
      : this.#awaitDeath(pid, this.#options.stopGraceMs);
    const ended = await Promise.race([gone, sleep(this.#options.stopGraceMs).then(() => false)]);
    if (!ended) await platform.signalTree(pid, "kill");
    if (!managed.child) {
      if (!ended) await this.#awaitDeath(pid, limits.PROCESS_DRAIN_MS);
      await this.#finish(managed, "terminated", null, "terminated");
    }
    await managed.settled;
    return { ...managed.record };
  }

  /**
   * Writes to the process's stdin (PTY or pipe).
   *
   * @param processId the process
   * @param data text to write
   * @throws {ProcessError} `process_recovered`, `process_not_running`
   */
  async write(processId: string, data: string): Promise<void> {
    const managed = this.#get(processId);
    if (managed.recovered) {
      throw new ProcessError("process_recovered", "Input is unavailable after a runtime restart");
    }
    if (managed.record.state !== "running" || !managed.child) {
      throw new ProcessError("process_not_running", "The process is not running");
    }
    managed.stdin ??= managed.child.stdin.getWriter();
    await managed.stdin.write(new TextEncoder().encode(data));
  }

  /**
   * Resizes a PTY process's terminal (`stty -F` on its pts; the job gets SIGWINCH).
   *
   * @param processId the process
   * @param cols columns
   * @param rows rows
   * @throws {ProcessError} `process_recovered`, `process_not_pty`, `process_not_running`,
   * `pty_resize_failed`
   */
  async resize(processId: string, cols: number, rows: number): Promise<void> {
    const managed = this.#get(processId);
    if (managed.recovered) {
      throw new ProcessError(
        "process_recovered",
        "Resizing is unavailable after a runtime restart",
      );
    }
    if (!managed.record.pty) {
      throw new ProcessError("process_not_pty", "The process has no terminal");
    }
    if (managed.record.state !== "running" || managed.record.pid === null) {
      throw new ProcessError("process_not_running", "The process is not running");
    }
    await this.#options.platform.resizePty(managed.record.pid, cols, rows);
  }

  /**
   * Settles records left `running` by a previous runtime: a process whose pid is alive with a
   * start time within ± 5 s is re-adopted (`runtime_recovered`, its log followed); any other
   * becomes `unknown` (`runtime_interrupted`) after its log is folded.
   *
   * @param records the last known records
   * @returns the settled records, in order
   */
  async recover(records: readonly ProcessRecord[]): Promise<ProcessRecord[]> {
    const settled: ProcessRecord[] = [];
    for (const previous of records) {
      if (previous.state !== "running") {
        settled.push(previous);
        continue;
      }
      // No pause before custody is proven: the recorded pid may belong to someone else now.
      let adopted: Managed | undefined;
      const log = await ProcessLog.open({
        root: this.#options.processesRoot,
        threadId: previous.threadId,
        processId: previous.processId,
        maskOutput: this.#options.maskOutput,
        pauseWriter: () => writerPause(adopted, this.#options.platform),
      });
      const custody = log.meta.custody as { pid?: number; startedAtMs?: number } | undefined;
      const record: ProcessRecord = { ...previous, outputBytes: await log.sync() };
      const policy = (previous as { supervise?: SupervisePolicy | null }).supervise ?? undefined;
      const managed = this.#track(record, log, { ...previous, supervise: policy }, true);
      const pid = custody?.pid ?? previous.pid;
      const observed = pid ? await this.#options.platform.observeStartTime(pid) : null;
      const expected = custody?.startedAtMs ?? Date.parse(previous.startedAt);
      const alive = observed !== null &&
        Math.abs(observed - expected) <= limits.PROCESS_CUSTODY_TOLERANCE_MS;
      if (alive && !previous.pty) {
        Object.assign(record, { state: "running", pid, errorCode: "runtime_recovered" });
        adopted = managed;
        // A runtime that died mid-fold left it paused.
        if (pid) this.#options.platform.treePause(pid)?.resume();
        this.#follow(managed);
        await this.#emit(managed);
      } else if (policy && !previous.pty) {
        // A supervised command that died while no runtime watched it restarts within
        // its budget (restarts of the last 600 s, as far as the record tells).
        const last = Date.parse(String(previous.lastRestartAt ?? ""));
        const count = Math.min(Number(previous.restartCount ?? 0), limits.SUPERVISE_MAX_RESTARTS);
        if (Date.now() - last < limits.SUPERVISE_WINDOW_MS) {
          managed.restarts = Array(count).fill(last);
        }
        managed.recovered = false;
        await this.#restart(managed, -1);
      } else {
        await this.#finish(managed, "unknown", null, "runtime_interrupted");
      }
      settled.push({ ...record });
    }
    return settled;
  }

  /** Stops following logs and releases handles; processes keep running (custody takes over). */
  async close(): Promise<void> {
    this.#closed = true;
    for (const managed of this.#processes.values()) {
      this.#clearTimers(managed);
      await managed.stdin?.close().catch(() => undefined);
      await managed.log.close();
    }
  }

  /**
   * The latest record of a process this manager knows.
   *
   * @param processId the process
   * @returns its record, or undefined when unknown here
   */
  record(processId: string): ProcessRecord | undefined {
    return this.#processes.get(processId)?.record;
  }

  /**
   * The latest records of every process this manager knows.
   *
   * @returns the records
   */
  records(): ProcessRecord[] {
    return [...this.#processes.values()].map((managed) => managed.record);
  }

  #get(processId: string): Managed {
    if (this.#closed) throw new ProcessError("manager_closed", "The process manager is closed");
    const managed = this.#processes.get(processId);
    if (!managed) throw new ProcessError("process_not_found", `Unknown process ${processId}`);
    return managed;
  }

  #track(record: ProcessRecord, log: ProcessLog, spec: StartProcessOptions, recovered: boolean) {
    let settle = () => {};
    const settled = new Promise<void>((resolve) => settle = resolve);
    const managed: Managed = {
      record,
      log,
      spec,
      recovered,
      child: null,
      stdin: null,
      pump: Promise.resolve(),
      stopping: false,
      restarts: [],
      timers: {},
      lastRecordAt: 0,
      outputBytes: log.totalBytes,
      ticks: 0,
      settled,
      settle,
    };
    this.#processes.set(record.processId, managed);
    return managed;
  }

  async #spawn(managed: Managed): Promise<void> {
    const { log, spec } = managed;
    await Deno.remove(log.paths.exit).catch(() => undefined);
    const { platform } = this.#options;
    const child = platform.spawn({
      command: spec.command,
      cwd: spec.cwd,
      env: platform.childEnv(this.#options.sourceEnv, this.#options.envAllowList),
      logPath: log.paths.log,
      exitPath: log.paths.exit,
      pty: spec.pty ?? false,
      cols: spec.cols ?? 120,
      rows: spec.rows ?? 40,
    });
    managed.child = child;
    managed.stdin = null;
    managed.record.pid = child.pid;
    if (spec.pty) {
      const copy = (stream: ReadableStream<Uint8Array>) =>
        stream.pipeTo(new WritableStream({ write: (bytes) => log.append(bytes).then(() => {}) }));
      managed.pump = Promise.all([copy(child.stdout), copy(child.stderr)]).catch(() => undefined);
    }
    await log.saveMeta({ custody: { pid: child.pid, startedAtMs: Date.now() } });
    child.status.then((status) => this.#onExit(managed, child, status));
  }

  async #onExit(managed: Managed, child: Deno.ChildProcess, status: Deno.CommandStatus) {
    if (this.#closed) return; // a later runtime owns it now
    const drained = sleep(limits.PROCESS_DRAIN_MS);
    await Promise.race([managed.pump, drained]);
    // Leftover descendants of the exited root (POSIX: its group; Windows finds only those
    // whose parent still runs).
    await this.#options.platform.signalTree(child.pid, "kill");
    await (managed.stdin ?? child.stdin).close().catch(() => undefined);
    managed.child = null;
    if (managed.stopping) return await this.#finish(managed, "terminated", null, "terminated");
    const policy = managed.spec.supervise;
    const failed = status.code !== 0;
    if (policy === "always" || (policy === "on-failure" && failed)) {
      return await this.#restart(managed, status.code);
    }
    await this.#finish(managed, "exited", status.code, null);
  }

  async #restart(managed: Managed, exitCode: number): Promise<void> {
    const at = Date.now();
    managed.restarts = managed.restarts.filter((t) => at - t < limits.SUPERVISE_WINDOW_MS);
    if (managed.restarts.length >= limits.SUPERVISE_MAX_RESTARTS) {
      return await this.#finish(managed, "exited", exitCode, "supervise_storm");
    }
    const count = Number(managed.record.restartCount ?? 0) + 1;
    const delay = Math.min(
      this.#options.superviseBackoffMs * 2 ** (count - 1),
      limits.SUPERVISE_BACKOFF_MAX_MS,
    );
    Object.assign(managed.record, { pid: null, exitCode });
    await this.#emit(managed);
    managed.timers.backoff = setTimeout(async () => {
      managed.timers.backoff = undefined;
      if (managed.stopping || managed.record.state !== "running") return;
      managed.restarts.push(Date.now());
      Object.assign(managed.record, { restartCount: count, lastRestartAt: now() });
      try {
        await this.#spawn(managed);
        await this.#emit(managed);
      } catch {
        await this.#finish(managed, "exited", exitCode, "spawn_failed");
      }
    }, delay);
  }

  async #awaitDeath(pid: number, withinMs: number): Promise<boolean> {
    const deadline = Date.now() + withinMs;
    while (Date.now() < deadline) {
      if (await this.#options.platform.observeStartTime(pid) === null) return true;
      await sleep(this.#options.followIntervalMs);
    }
    return false;
  }

  #follow(managed: Managed): void {
    let busy = false;
    managed.timers.follow = setInterval(async () => {
      if (busy) return;
      busy = true;
      try {
        await this.#followTick(managed);
      } finally {
        busy = false;
      }
    }, this.#options.followIntervalMs);
  }

  async #followTick(managed: Managed): Promise<void> {
    const total = await managed.log.sync();
    if (total !== managed.outputBytes) {
      managed.outputBytes = total;
      this.#scheduleRecord(managed);
    }
    if (!managed.recovered || managed.stopping || ++managed.ticks % 5 !== 0) return;
    const pid = managed.record.pid;
    if (pid === null || await this.#options.platform.observeStartTime(pid) !== null) return;
    const exitText = await Deno.readTextFile(managed.log.paths.exit).catch(() => "");
    const exitCode = /^\d+$/.test(exitText.trim()) ? Number(exitText.trim()) : null;
    if (managed.stopping) return;
    if (exitCode === null) {
      return await this.#finish(managed, "unknown", null, "runtime_interrupted");
    }
    await this.#finish(managed, "exited", exitCode, "runtime_recovered");
  }

  #scheduleRecord(managed: Managed): void {
    if (managed.timers.record !== undefined) return;
    const wait = managed.lastRecordAt + limits.PROCESS_RECORD_INTERVAL_MS - Date.now();
    managed.timers.record = setTimeout(() => {
      managed.timers.record = undefined;
      if (managed.record.state === "running") this.#emit(managed).catch(() => undefined);
    }, Math.max(0, wait));
  }

  async #finish(
    managed: Managed,
    state: ProcessRecord["state"],
    exitCode: number | null,
    errorCode: ProcessRecord["errorCode"],
  ): Promise<void> {
    if (managed.record.state !== "running" && managed.record.finishedAt) return;
    this.#clearTimers(managed);
    managed.outputBytes = await managed.log.sync();
    Object.assign(managed.record, { state, errorCode, finishedAt: now() });
    if (exitCode !== null) managed.record.exitCode = exitCode; // else keep a supervised exit
    await this.#emit(managed);
    managed.settle();
  }

  #clearTimers(managed: Managed): void {
    clearInterval(managed.timers.follow);
    clearTimeout(managed.timers.record);
    clearTimeout(managed.timers.backoff);
    managed.timers = {};
  }

  async #emit(managed: Managed): Promise<void> {
    clearTimeout(managed.timers.record);
    managed.timers.record = undefined;
    managed.lastRecordAt = Date.now();
    managed.record.outputBytes = managed.outputBytes;
    await managed.log.saveMeta({ record: managed.record });
    this.#options.onRecord?.({ ...managed.record });
  }
}

/**
 * How a fold holds a child that appends to its own log still: its process group is stopped
 * for the moment the file is cut (a PTY child's output is appended by the runtime instead).
 */
function writerPause(
  managed: Managed | undefined,
  platform: ProcessPlatform,
): WriterPause | null {
  const pid = managed?.record.pid;
  if (!managed || managed.spec.pty || managed.record.state !== "running" || !pid) return null;
  if (managed.child === null && !managed.recovered) return null; // exited: nothing writes
  return platform.treePause(pid);
}
