/**
 * Which journal events concern the user's background commands: a background process
 * started (the moment to offer notifications) or finished (the moment to notify). Pure,
 * so the rules are tested without a browser.
 *
 * @module
 */
import type { JournalEvent, ProcessRecord } from "@daedalus/client";

/** What a `process.recorded` event says about a background command. */
export type BackgroundChange =
  | { kind: "started"; process: ProcessRecord }
  | { kind: "finished"; process: ProcessRecord };

/**
 * Reads a background command's start or end from an event.
 *
 * @param event a live journal event
 * @returns the change, or null for any other event (foreground processes included)
 */
export function backgroundChange(event: JournalEvent): BackgroundChange | null {
  if (event.type !== "process.recorded") return null;
  const process = (event.payload as { process?: ProcessRecord }).process;
  if (!process || process.background !== true) return null;
  return process.state === "running" ? { kind: "started", process } : { kind: "finished", process };
}

/** The longest command a notification shows. */
const COMMAND_MAX_CHARS = 80;

/**
 * The text of a finished command's notification.
 *
 * @param process its final record
 * @returns whether it failed, and the command (shortened) with its exit code or state
 */
export function finishedSummary(
  process: ProcessRecord,
): { failed: boolean; command: string; exitCode: number | null; state: string } {
  const command = process.command.length > COMMAND_MAX_CHARS
    ? `${process.command.slice(0, COMMAND_MAX_CHARS - 1)}…`
    : process.command;
  const failed = process.errorCode !== null ||
    (process.exitCode !== null ? process.exitCode !== 0 : process.state !== "exited");
  return { failed, command, exitCode: process.exitCode, state: process.state };
}
