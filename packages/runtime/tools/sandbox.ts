/**
 * Tool sandboxes: in the narrowed permission modes, file tools run inside a Worker
 * whose Deno permissions match the mode — `read_only` reads the workspace (and
 * writes only the runtime's own artifacts folder), `workspace_write` also writes the
 * workspace; neither may run commands, use the network or read the environment. One
 * Worker per (mode, workspace) is started once, kept warm and reused across Runs.
 * `full_access` runs tools in-process (no Worker, no added latency).
 *
 * The Worker is the second wall: Deno checks paths as written (a symlink inside the
 * workspace is followed), so the tools' own sealed access checks (`@daedalus/tools`
 * `files/access.ts`) come first and the Worker refuses what they would miss.
 *
 * Failures are visible: a Worker that cannot start or dies answers its calls with
 * {@linkcode SANDBOX_UNAVAILABLE} (the loop then fails the Run with
 * `tool_sandbox_unavailable`). A cancelled call resolves as cancelled at once, and its
 * Worker is retired: later calls go to a fresh one, since it may be stuck (a Run started
 * right after the cancel must not land on it). A retired Worker ends once it has answered
 * its calls; one that has not answered the cancel within {@linkcode SANDBOX_CANCEL_GRACE_MS}
 * (stuck in a long loop) is terminated, and the calls it still had fail.
 *
 * Needs `--unstable-worker-options` (set in the deno tasks).
 *
 * @module
 */
import type { SealedPolicy, ToolFacts, ToolResult } from "@daedalus/tools";
import { SANDBOX_CANCEL_GRACE_MS } from "../limits.ts";

/** The error code of a call whose sandbox could not start or died. */
export const SANDBOX_UNAVAILABLE = "sandbox_unavailable";

/** A narrowed permission mode. */
export type SandboxMode = SealedPolicy;

/** What a sandboxed call needs besides the tool and its arguments. */
export interface SandboxCall {
  /** The thread. */
  threadId: string;
  /** The run. */
  runId: string;
  /** The tool_call item. */
  itemId: string;
  /** The thread's workspace. */
  workspaceRoot: string;
  /** Cancellation. */
  signal: AbortSignal;
}

/** A sandboxed call's outcome. */
export interface SandboxOutcome {
  /** The tool's result (or the sandbox's failure as a tool error). */
  result: ToolResult;
  /** Facts the call produced. */
  facts: ToolFacts;
}

interface Sandbox {
  key: string;
  worker: Worker;
  pending: Map<number, (outcome: SandboxOutcome) => void>;
  /** Takes no new calls (a cancel is unanswered); ends once its calls are answered. */
  retired: boolean;
  /**
   * How it ended, once it has: a Worker that fails while loading can report before the call
   * that started it has registered (both arrive as promise continuations), so that call
   * must not wait on a Worker that is gone.
   */
  ended: SandboxOutcome | null;
}

const NO_FACTS = (): ToolFacts => ({ fileChanges: [], processes: [] });

function failed(errorCode: string, content: string): SandboxOutcome {
  return { result: { content, isError: true, errorCode }, facts: NO_FACTS() };
}

/**
 * The Deno permissions of a sandbox Worker for a mode: the workspace (as given and as its
 * real path, since Deno compares paths as written) and the artifacts folder.
 *
 * @param mode the narrowed mode
 * @param workspaceRoots the workspace root and its real path
 * @param artifactsRoot `<home>/artifacts`
 * @returns the Worker's `deno.permissions`
 */
export function sandboxPermissions(
  mode: SandboxMode,
  workspaceRoots: string[],
  artifactsRoot: string,
): Deno.PermissionOptionsObject {
  return {
    read: [...workspaceRoots, artifactsRoot],
    write: mode === "workspace_write" ? [...workspaceRoots, artifactsRoot] : [artifactsRoot],
    net: false,
    run: false,
    env: false,
    ffi: false,
    sys: false,
    import: false,
  };
}

/** The warm sandboxes of a runtime. */
export class ToolSandboxes {
  readonly #artifactsRoot: string;
  readonly #protectedValues: () => string[];
  readonly #protectedFiles: readonly string[];
  readonly #workerUrl: URL;
  readonly #workers = new Map<string, Sandbox>();
  readonly #retired = new Set<Sandbox>();
  #nextId = 1;

  /**
   * @param artifactsRoot `<home>/artifacts` (the only place a read_only sandbox writes)
   * @param protectedValues the current credentials, handed to the worker with each call
   * @param protectedFiles `<home>/config.yaml`, `auth.json`, `sessions.json`: refused by
   *   the tools in every mode
   * @param workerUrl the Worker's module (tests pass a broken or stuck one)
   */
  constructor(
    artifactsRoot: string,
    protectedValues: () => string[],
    protectedFiles: readonly string[] = [],
    workerUrl: URL = new URL("./sandbox_worker.ts", import.meta.url),
  ) {
    this.#workerUrl = workerUrl;
    this.#artifactsRoot = artifactsRoot;
    this.#protectedValues = protectedValues;
    this.#protectedFiles = protectedFiles;
  }

  /** How many sandboxes are warm. */
  get size(): number {
    return this.#workers.size;
  }

  /** How many calls are waiting on a Worker's answer (or on a cancel's grace period). */
  get waiting(): number {
    let count = 0;
    for (const sandbox of [...this.#workers.values(), ...this.#retired]) {
      count += sandbox.pending.size;
    }
    return count;
  }

  /**
   * Runs a file tool in the sandbox of a mode and workspace. Never throws: a sandbox
   * that cannot start or dies gives a {@linkcode SANDBOX_UNAVAILABLE} tool error.
   *
   * @param mode a narrowed mode
   * @param toolId the tool
   * @param args its arguments
   * @param call ids, workspace, cancellation
   * @returns the result and its facts
   */
  async run(
    mode: SandboxMode,
    toolId: string,
    args: unknown,
    call: SandboxCall,
  ): Promise<SandboxOutcome> {
    if (call.signal.aborted) return failed("cancelled", `The ${toolId} call was cancelled`);
    let sandbox: Sandbox;
    try {
      sandbox = await this.#sandbox(mode, call.workspaceRoot);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      console.error(`tool sandbox (${mode}) cannot start: ${reason}`);
      return failed(SANDBOX_UNAVAILABLE, `The ${mode} tool sandbox could not start: ${reason}`);
    }
    // Checked again after the await: an abort that fired while the sandbox was being found
    // would never reach the listener added below, and the call would wait on the Worker.
    if (call.signal.aborted) return failed("cancelled", `The ${toolId} call was cancelled`);
    const id = this.#nextId++;
    let grace: ReturnType<typeof setTimeout> | undefined;
    if (sandbox.ended) return sandbox.ended;
    const outcome = new Promise<SandboxOutcome>((resolve) => {
      sandbox.pending.set(id, resolve);
    });
    const onAbort = () => {
      const settle = sandbox.pending.get(id);
      if (settle === undefined) return; // answered already, or its Worker is gone
      sandbox.pending.delete(id);
      settle(failed("cancelled", `The ${toolId} call was cancelled`));
      sandbox.worker.postMessage({ type: "cancel", id });
      this.#retire(sandbox);
      // The Worker acknowledges a cancel by answering the call; one that stays silent
      // (a long synchronous loop never reads messages) is terminated.
      sandbox.pending.set(id, () => clearTimeout(grace));
      grace = setTimeout(() => {
        if (sandbox.pending.has(id)) {
          this.#replace(sandbox, `cancelled ${toolId} call did not stop`);
        }
      }, SANDBOX_CANCEL_GRACE_MS);
    };
    call.signal.addEventListener("abort", onAbort, { once: true });
    try {
      sandbox.worker.postMessage({
        type: "run",
        id,
        toolId,
        args,
        protectedValues: this.#protectedValues(),
        context: {
          threadId: call.threadId,
          runId: call.runId,
          itemId: call.itemId,
          workspaceRoot: call.workspaceRoot,
          artifactsRoot: this.#artifactsRoot,
          executionPolicy: mode,
          protectedFiles: [...this.#protectedFiles],
        },
      });
    } catch (error) {
      sandbox.pending.delete(id);
      return failed(SANDBOX_UNAVAILABLE, `The ${mode} tool sandbox failed: ${error}`);
    }
    try {
      return await outcome;
    } finally {
      call.signal.removeEventListener("abort", onAbort);
    }
  }

  /** Stops every sandbox. */
  close(): void {
    for (const sandbox of [...this.#workers.values(), ...this.#retired]) {
      this.#stop(sandbox, failed("cancelled", "The runtime is shutting down"));
    }
  }

  async #sandbox(mode: SandboxMode, workspaceRoot: string): Promise<Sandbox> {
    const key = `${mode}\u0000${workspaceRoot}`;
    const existing = this.#workers.get(key);
    if (existing) return existing;
    const real = await Deno.realPath(workspaceRoot).catch(() => workspaceRoot);
    const raced = this.#workers.get(key);
    if (raced) return raced;
    const worker = new Worker(this.#workerUrl, {
      type: "module",
      deno: {
        permissions: sandboxPermissions(
          mode,
          [...new Set([workspaceRoot, real])],
          this.#artifactsRoot,
        ),
      },
    });
    const sandbox: Sandbox = { key, worker, pending: new Map(), retired: false, ended: null };
    worker.onmessage = (event: MessageEvent) => {
      const { id, result, facts } = event.data as { id: number } & SandboxOutcome;
      const settle = sandbox.pending.get(id);
      sandbox.pending.delete(id);
      settle?.({ result, facts });
      if (sandbox.retired && sandbox.pending.size === 0) {
        this.#stop(sandbox, failed("cancelled", "The tool sandbox was retired"));
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      console.error(`tool sandbox (${mode}) failed: ${event.message}`);
      this.#stop(
        sandbox,
        failed(SANDBOX_UNAVAILABLE, `The ${mode} tool sandbox failed: ${event.message}`),
      );
    };
    this.#workers.set(key, sandbox);
    return sandbox;
  }

  /** Takes a sandbox out of service: new calls of its mode and workspace start a fresh one. */
  #retire(sandbox: Sandbox): void {
    if (this.#workers.get(sandbox.key) === sandbox) this.#workers.delete(sandbox.key);
    sandbox.retired = true;
    this.#retired.add(sandbox);
  }

  /** Terminates a stuck Worker; its other calls fail (retryable), the next call gets a new one. */
  #replace(sandbox: Sandbox, why: string): void {
    console.error(`tool sandbox replaced: ${why}`);
    this.#stop(
      sandbox,
      failed("tool_failed", "The tool sandbox was restarted while this call ran; try it again"),
    );
  }

  #stop(sandbox: Sandbox, outcome: SandboxOutcome): void {
    sandbox.ended ??= outcome;
    sandbox.worker.terminate();
    if (this.#workers.get(sandbox.key) === sandbox) this.#workers.delete(sandbox.key);
    this.#retired.delete(sandbox);
    const waiting = [...sandbox.pending.values()];
    sandbox.pending.clear();
    for (const settle of waiting) settle(outcome);
  }
}
