/**
 * How `daedalus run` prints a Run. As text: the answer streams to stdout and nothing else
 * goes there; tool calls, their outcomes, reasoning and notices go to stderr, coloured
 * only when stderr is a terminal and NO_COLOR is unset. As JSON: one line per journal
 * event on stdout, exactly the `params` of the `event` notification a WebSocket client
 * receives, then one summary line; notices still go to stderr, as plain text.
 *
 * @module
 */
import { addUsage as addCallUsage } from "../gateway/usage_sum.ts";
import type { JournalEvent, TokenUsage } from "@daedalus/protocol";

/** The last line of `--json`. */
export interface RunSummaryLine {
  /** Always `summary`. */
  type: "summary";
  /** The Run's settled status (`completed`, `failed`, `cancelled`), or `failed` without one. */
  status: string;
  /** The Run's reason code, or the command's own (`approval_required`, `timed_out`). */
  reasonCode: string | null;
  /** The token use of the Run's model calls added up, or null when none reported any. */
  usage: TokenUsage | null;
  /** The thread. */
  threadId: string | null;
  /** The Run. */
  runId: string | null;
}

/** Where the printer writes (the process's streams, or buffers in tests). */
export interface RunStreams {
  /** Writes answer text or JSON lines. */
  stdout(text: string): void;
  /** Writes activity and notices. */
  stderr(text: string): void;
  /** Whether stderr may be coloured (a terminal, and no NO_COLOR). */
  colour: boolean;
}

/** Prints one Run. */
export interface RunPrinter {
  /** Prints an event of the Run's thread. */
  event(event: JournalEvent): void;
  /** Prints a notice (stderr, one line). */
  notice(line: string): void;
  /** Prints the end: the summary line with `--json`, a final newline after an answer. */
  finish(summary: RunSummaryLine): void;
}

const DIM = "\x1b[2m";
const RED = "\x1b[31m";
const GREEN = "\x1b[32m";
const CYAN = "\x1b[36m";
const RESET = "\x1b[0m";

/** Longest argument preview on a tool line (chars): one terminal line, not the whole call. */
const ARGUMENTS_PREVIEW_MAX_CHARS = 120;

/**
 * Makes the printer of one Run.
 *
 * @param json `--json`
 * @param streams where to write
 * @returns the printer
 */
export function createRunPrinter(json: boolean, streams: RunStreams): RunPrinter {
  const paint = (code: string, text: string) => streams.colour ? `${code}${text}${RESET}` : text;
  const notice = (line: string) => streams.stderr(`${line}\n`);
  if (json) {
    return {
      event: (event) => streams.stdout(`${JSON.stringify(event)}\n`),
      notice,
      finish: (summary) => streams.stdout(`${JSON.stringify(summary)}\n`),
    };
  }
  let answerOpen = false; // answer text printed without a newline at its end yet
  let reasoningOpen = false;
  const endReasoning = () => {
    if (reasoningOpen) streams.stderr("\n");
    reasoningOpen = false;
  };
  return {
    event(event) {
      if (event.type === "item.delta") {
        if (event.payload.field === "reasoning") {
          streams.stderr(paint(DIM, event.payload.delta));
          reasoningOpen = true;
          return;
        }
        endReasoning();
        streams.stdout(event.payload.delta);
        answerOpen = !event.payload.delta.endsWith("\n");
        return;
      }
      if (event.type === "item.started" && event.payload.item.kind === "tool_call") {
        endReasoning();
        const data = event.payload.item.data;
        const tool = typeof data.toolId === "string" ? data.toolId : "tool";
        notice(paint(CYAN, `→ ${tool} ${preview(data.arguments)}`.trimEnd()));
        return;
      }
      if (event.type === "item.completed" && event.payload.item.kind === "tool_result") {
        const item = event.payload.item;
        const failed = item.status === "failed" || item.data.isError === true;
        const first = item.content.split("\n", 1)[0] ?? "";
        notice(
          failed ? paint(RED, `  ✗ ${cut(first)}`) : paint(GREEN, `  ✓ ${lineCount(item.content)}`),
        );
        return;
      }
      if (event.type === "run.model_fallback") {
        const { toProviderId, toModelId, reasonCode } = event.payload;
        notice(paint(DIM, `model fallback to ${toProviderId}/${toModelId} (${reasonCode})`));
      }
    },
    notice: (line) => {
      endReasoning();
      notice(line);
    },
    finish(summary) {
      endReasoning();
      if (answerOpen) streams.stdout("\n");
      answerOpen = false;
      if (summary.status !== "completed") {
        const reason = summary.reasonCode ? ` (${summary.reasonCode})` : "";
        notice(paint(RED, `Run ${summary.status}${reason}`));
      }
    },
  };
}

/**
 * Adds up the usage of a Run's model calls.
 *
 * @param total the sum so far, or null
 * @param usage one call's usage, or null when the provider reported none
 * @returns the new sum
 */
export function addUsage(total: TokenUsage | null, usage: TokenUsage | null): TokenUsage | null {
  return usage === null ? total : addCallUsage(total, usage);
}

function preview(args: unknown): string {
  if (args === undefined) return "";
  let text: string;
  try {
    text = typeof args === "string" ? args : JSON.stringify(args);
  } catch {
    return "";
  }
  return cut(text);
}

function cut(text: string): string {
  return text.length > ARGUMENTS_PREVIEW_MAX_CHARS
    ? `${text.slice(0, ARGUMENTS_PREVIEW_MAX_CHARS - 1)}…`
    : text;
}

function lineCount(content: string): string {
  if (content === "") return "done";
  const lines = content.split("\n").length - (content.endsWith("\n") ? 1 : 0);
  return `${lines} line${lines === 1 ? "" : "s"}`;
}
