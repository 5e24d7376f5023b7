/**
 * The flags of `daedalus run`, validated before anything is opened: a bad model name,
 * preset, timeout or flag combination is a {@linkcode UsageError} (exit code 2) naming
 * the value and what is allowed.
 *
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import { AgentId, ATTACHMENTS_MAX_COUNT, PERMISSION_PRESETS, ThreadId } from "@daedalus/protocol";
import type { OptionValue } from "./args.ts";
import { UsageError } from "./args.ts";
import { RUN_TIMEOUT_MAX_SECONDS } from "./limits.ts";

/** A permission preset, the Run's execution policy. */
export type PermissionPreset = typeof PERMISSION_PRESETS[number];

/** Where the prompt comes from. */
export type PromptSource = { kind: "text"; text: string } | { kind: "stdin" };

/** Which thread the turn goes to. */
export type ThreadChoice =
  | { kind: "new"; workspace: string | null }
  | { kind: "id"; threadId: string }
  | { kind: "newest" };

/** The validated request of one `daedalus run`. */
export interface RunRequest {
  /** The prompt, or standard input. */
  prompt: PromptSource;
  /** `--model PROVIDER/MODEL`, or null to pick one. */
  model: { providerId: string; modelId: string } | null;
  /** The thread. */
  thread: ThreadChoice;
  /**
   * `--agent ID`: the agent profile a new thread is bound to, or an existing one is
   * switched to before the turn; null keeps the thread's (a new one: the default).
   */
  agent: string | null;
  /** `--permission`, or null for config.yaml's preset. */
  permission: PermissionPreset | null;
  /** `--json`. */
  json: boolean;
  /** `--attach` files, as absolute paths. */
  attachments: string[];
  /** `--timeout` in milliseconds, or null. */
  timeoutMs: number | null;
}

const MODEL_PATTERN = /^([a-z0-9][a-z0-9_-]{0,63})\/(\S(?:.*\S)?)$/;

/**
 * Validates the positionals and flags of `daedalus run`.
 *
 * @param positionals the words after `run` (at most one: the prompt or `-`)
 * @param values the parsed flags
 * @param context the working directory (relative paths resolve against it) and whether
 *   standard input is a terminal (a missing prompt is read from a pipe, never a terminal)
 * @returns the request
 * @throws {UsageError} naming the flag, its value and what is allowed
 */
export function readRunRequest(
  positionals: readonly string[],
  values: Readonly<Record<string, OptionValue>>,
  context: { cwd: string; stdinIsTerminal: boolean },
): RunRequest {
  const fail = (message: string) => new UsageError(message, "run");
  const text = positionals[0];
  let prompt: PromptSource;
  if (text === "-" || (text === undefined && !context.stdinIsTerminal)) prompt = { kind: "stdin" };
  else if (text === undefined) {
    throw fail("run needs a PROMPT, or - to read it from standard input");
  } else if (text.trim() === "") throw fail("The prompt is empty");
  else prompt = { kind: "text", text };

  const model = stringValue(values.model);
  let parsedModel: RunRequest["model"] = null;
  if (model !== undefined) {
    const match = MODEL_PATTERN.exec(model);
    if (!match) {
      throw fail(`--model "${model}" is not PROVIDER/MODEL (e.g. deepseek/deepseek-chat)`);
    }
    parsedModel = { providerId: match[1]!, modelId: match[2]! };
  }

  const threadId = stringValue(values.thread);
  const newest = values.continue === true;
  const workspace = stringValue(values.workspace);
  if (threadId !== undefined && newest) throw fail("--thread and --continue exclude each other");
  if (workspace !== undefined && (threadId !== undefined || newest)) {
    throw fail("--workspace is for a new thread; a thread keeps the workspace it has");
  }
  let thread: ThreadChoice;
  if (threadId !== undefined) {
    if (!ThreadId.safeParse(threadId).success) {
      throw fail(`--thread "${threadId}" is not a thread id (thread_ and 32 hex digits)`);
    }
    thread = { kind: "id", threadId };
  } else if (newest) thread = { kind: "newest" };
  else thread = { kind: "new", workspace: workspace === undefined ? null : absolute(workspace) };

  const agent = stringValue(values.agent);
  if (agent !== undefined && !AgentId.safeParse(agent).success) {
    throw fail(
      `--agent "${agent}" is not an agent profile id (1-64 of a-z, 0-9, _ and -, e.g. plan)`,
    );
  }

  const permission = stringValue(values.permission);
  if (permission !== undefined && !isPreset(permission)) {
    throw fail(`--permission "${permission}" is not one of ${PERMISSION_PRESETS.join(", ")}`);
  }

  const attach = values.attach;
  const attachments = (Array.isArray(attach) ? attach : []).map(absolute);
  if (attachments.length > ATTACHMENTS_MAX_COUNT) {
    throw fail(`--attach was given ${attachments.length} times; at most ${ATTACHMENTS_MAX_COUNT}`);
  }

  return {
    prompt,
    model: parsedModel,
    thread,
    agent: agent ?? null,
    permission: permission ?? null,
    json: values.json === true,
    attachments,
    timeoutMs: timeoutMs(stringValue(values.timeout)),
  };

  function absolute(path: string): string {
    return isAbsolute(path) ? path : resolve(context.cwd, path);
  }

  function timeoutMs(raw: string | undefined): number | null {
    if (raw === undefined) return null;
    const seconds = Number(raw);
    if (
      !/^\s*\d+(\.\d+)?\s*$/.test(raw) || !(seconds > 0) || seconds > RUN_TIMEOUT_MAX_SECONDS
    ) {
      throw fail(
        `--timeout "${raw}" is not a number of seconds above 0 and at most ${RUN_TIMEOUT_MAX_SECONDS}`,
      );
    }
    return Math.ceil(seconds * 1000);
  }
}

function stringValue(value: OptionValue | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function isPreset(value: string): value is PermissionPreset {
  return (PERMISSION_PRESETS as readonly string[]).includes(value);
}
