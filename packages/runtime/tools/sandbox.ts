/**
 * Tool sandboxes: in the narrowed permission modes, file tools run inside a Worker
 * whose Deno permissions match the mode — `read_only` reads the workspace (and
 * writes only the runtime's own artifacts folder), `workspace_write` also writes the
 * workspace; neither may run commands, use the network or read the environment. One
 * Worker per (mode, workspace) is started once, kept warm and reused across Runs.
 * `full_access` runs tools in-process (no Worker, no added latency).
 *
 * Needs `--unstable-worker-options` (set in the deno tasks).
 *
 * @module
 */
import type { ExecutionPolicy } from "@daedalus/protocol";
import type { ToolFacts, ToolResult } from "@daedalus/tools";

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

interface Pending {
  resolve: (value: { result: ToolResult; facts: ToolFacts }) => void;
}

/** The warm sandboxes of a runtime. */
export class ToolSandboxes {
  readonly #artifactsRoot: string;
  readonly #protectedValues: () => string[];
  readonly #workers = new Map<string, { worker: Worker; pending: Map<number, Pending> }>();
  #nextId = 1;

  /**
   * @param artifactsRoot `<home>/artifacts` (the only place a read_only sandbox writes)
   * @param protectedValues the current credentials, handed to the worker with each call
   */
  constructor(artifactsRoot: string, protectedValues: () => string[]) {
    this.#artifactsRoot = artifactsRoot;
    this.#protectedValues = protectedValues;
  }

  /** How many sandboxes are warm. */
  get size(): number {
    return this.#workers.size;
  }

  /**
   * Runs a file tool in the sandbox of a mode and workspace.
   *
   * @param mode a narrowed mode
   * @param toolId the tool
   * @param args its arguments
   * @param call ids, workspace, cancellation
   * @returns the result and its facts
   */
  run(
    mode: Exclude<ExecutionPolicy, "full_access">,
    toolId: string,
    args: unknown,
    call: SandboxCall,
  ): Promise<{ result: ToolResult; facts: ToolFacts }> {
    const sandbox = this.#sandbox(mode, call.workspaceRoot);
    const id = this.#nextId++;
    const onAbort = () => sandbox.worker.postMessage({ type: "cancel", id });
    call.signal.addEventListener("abort", onAbort, { once: true });
    return new Promise<{ result: ToolResult; facts: ToolFacts }>((resolve) => {
      sandbox.pending.set(id, { resolve });
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
        },
      });
    }).finally(() => call.signal.removeEventListener("abort", onAbort));
  }

  /** Stops every sandbox. */
  close(): void {
    for (const { worker, pending } of this.#workers.values()) {
      worker.terminate();
      for (const waiting of pending.values()) {
        waiting.resolve({
          result: {
            content: "The runtime is shutting down",
            isError: true,
            errorCode: "cancelled",
          },
          facts: { fileChanges: [], processes: [] },
        });
      }
    }
    this.#workers.clear();
  }

  #sandbox(mode: Exclude<ExecutionPolicy, "full_access">, workspaceRoot: string) {
    const key = `${mode}\u0000${workspaceRoot}`;
    const existing = this.#workers.get(key);
    if (existing) return existing;
    const worker = new Worker(new URL("./sandbox_worker.ts", import.meta.url), {
      type: "module",
      deno: {
        permissions: {
          read: [workspaceRoot, this.#artifactsRoot],
          write: mode === "workspace_write"
            ? [workspaceRoot, this.#artifactsRoot]
            : [this.#artifactsRoot],
          net: false,
          run: false,
          env: false,
          ffi: false,
          sys: false,
          import: false,
        },
      },
    });
    const pending = new Map<number, Pending>();
    worker.onmessage = (event: MessageEvent) => {
      const { id, result, facts } = event.data as {
        id: number;
        result: ToolResult;
        facts: ToolFacts;
      };
      pending.get(id)?.resolve({ result, facts });
      pending.delete(id);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      console.error(`tool sandbox (${mode}) failed: ${event.message}`);
      for (const waiting of pending.values()) {
        waiting.resolve({
          result: {
            content: `The tool sandbox failed: ${event.message}`,
            isError: true,
            errorCode: "tool_failed",
          },
          facts: { fileChanges: [], processes: [] },
        });
      }
      pending.clear();
      this.#workers.delete(key);
    };
    const sandbox = { worker, pending };
    this.#workers.set(key, sandbox);
    return sandbox;
  }
}
