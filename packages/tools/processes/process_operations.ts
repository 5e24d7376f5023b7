/**
 * What the process tools may do: the process manager's operations scoped to the calling
 * Run's thread (a model never reaches another thread's process), handed to them through
 * the ToolContext.
 *
 * @module
 */
import type { ProcessOutputPage, ProcessRecord } from "@daedalus/protocol";
import type { SupervisePolicy } from "./process_manager.ts";

/** How a command is started (the thread and run come from the context). */
export interface ProcessStartRequest {
  /** The tool_call item that starts it. */
  itemId: string;
  /** Shell command text. */
  command: string;
  /** Working directory (absolute). */
  cwd: string;
  /** Whether the Run may finish while it runs. */
  background: boolean;
  /** Run under a pseudo-terminal. */
  pty: boolean;
  /** Restart policy. */
  supervise?: SupervisePolicy;
}

/**
 * Process operations of one thread. Every operation on a process id throws a
 * `process_not_found` tool error when the process is not the thread's.
 */
export interface ProcessOperations {
  /**
   * Starts a command.
   *
   * @param request command, folder, mode
   * @returns its record
   */
  start(request: ProcessStartRequest): Promise<ProcessRecord>;
  /**
   * Reads output from a byte cursor.
   *
   * @param processId the process
   * @param cursor byte offset
   * @returns the page
   */
  read(processId: string, cursor: number): Promise<ProcessOutputPage>;
  /**
   * Waits for the command to finish, at most `timeoutMs`.
   *
   * @param processId the process
   * @param timeoutMs how long
   * @param signal cancellation
   * @returns whether it is still running
   */
  wait(processId: string, timeoutMs: number, signal: AbortSignal): Promise<{ timedOut: boolean }>;
  /**
   * Stops the command and its process tree.
   *
   * @param processId the process
   * @returns its final record
   */
  stop(processId: string): Promise<ProcessRecord>;
  /**
   * Writes to its stdin.
   *
   * @param processId the process
   * @param data the text
   */
  write(processId: string, data: string): Promise<void>;
  /**
   * Resizes its terminal.
   *
   * @param processId the process
   * @param cols columns
   * @param rows rows
   */
  resize(processId: string, cols: number, rows: number): Promise<void>;
}
