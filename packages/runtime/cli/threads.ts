/**
 * `daedalus threads` (the catalog, newest first) and `daedalus show THREAD` (one
 * thread's transcript on its active branch), read through a {@linkcode HomeSession} with
 * the same methods the web app uses. `--json` prints the protocol's objects as they are.
 *
 * @module
 */
import { PAGE_MAX_LIMIT, RpcError, type Thread, type Turn } from "@daedalus/protocol";
import { UsageError } from "./args.ts";
import type { HomeSession } from "./home_session.ts";

/**
 * Prints every thread that is not archived, newest first: `ID  UPDATED  TITLE` lines, or
 * one JSON thread object per line.
 *
 * @param session the home
 * @param json `--json`
 * @param write writes to stdout
 * @returns the exit code
 */
export async function listThreads(
  session: HomeSession,
  json: boolean,
  write: (text: string) => void,
): Promise<number> {
  let cursor: string | null = null;
  do {
    const page: { threads: Thread[]; nextCursor: string | null } = await session.call(
      "thread.list",
      { limit: PAGE_MAX_LIMIT, cursor },
    );
    for (const thread of page.threads) {
      write(json ? `${JSON.stringify(thread)}\n` : `${threadLine(thread)}\n`);
    }
    cursor = page.nextCursor;
  } while (cursor !== null);
  return 0;
}

/**
 * Prints a thread's transcript: its turns oldest first, each Run's messages, tool calls
 * and their outcomes; or one JSON object `{thread, turns}`.
 *
 * @param session the home
 * @param threadId the thread
 * @param json `--json`
 * @param write writes to stdout
 * @returns the exit code
 * @throws {UsageError} when there is no such thread
 */
export async function showThread(
  session: HomeSession,
  threadId: string,
  json: boolean,
  write: (text: string) => void,
): Promise<number> {
  let thread: Thread;
  try {
    thread = (await session.call("thread.get", { threadId })).thread;
  } catch (error) {
    if (
      error instanceof RpcError && ["thread_not_found", "invalid_params"].includes(error.reasonCode)
    ) {
      throw new UsageError(`show ${threadId}: no such thread`, "show");
    }
    throw error;
  }
  const turns: Turn[] = [];
  let cursor: string | null = null;
  do {
    const page: { turns: Turn[]; nextCursor: string | null } = await session.call("turn.list", {
      threadId,
      limit: PAGE_MAX_LIMIT,
      cursor,
    });
    turns.push(...page.turns);
    cursor = page.nextCursor;
  } while (cursor !== null);
  if (json) {
    write(`${JSON.stringify({ thread, turns })}\n`);
    return 0;
  }
  write(`${transcript(thread, turns)}`);
  return 0;
}

/**
 * One line of `daedalus threads`.
 *
 * @param thread the thread
 * @returns `ID  UPDATED  TITLE`
 */
export function threadLine(thread: Thread): string {
  return `${thread.id}  ${thread.updatedAt}  ${thread.title ?? "(untitled)"}`;
}

/**
 * The text transcript of `daedalus show`.
 *
 * @param thread the thread
 * @param turns its turns, oldest first
 * @returns the text, ending in a newline
 */
export function transcript(thread: Thread, turns: readonly Turn[]): string {
  const lines = [`# ${thread.title ?? "(untitled)"}`, `${thread.id}`];
  if (thread.workspace) lines.push(`workspace: ${thread.workspace.rootUri}`);
  for (const turn of turns) {
    for (const run of turn.runs) {
      const reason = run.reasonCode ? ` (${run.reasonCode})` : "";
      for (const item of run.items) {
        if (item.kind === "message" && item.role === "user") {
          lines.push("", `## You`, item.content);
        } else if (item.kind === "message") {
          lines.push("", `## ${run.providerId}/${run.modelId}`, item.content);
        } else if (item.kind === "tool_call") {
          const args = item.data.arguments === undefined ? "" : JSON.stringify(item.data.arguments);
          lines.push(`→ ${String(item.data.toolId ?? "tool")} ${args}`.trimEnd());
        } else {
          const first = item.content.split("\n", 1)[0] ?? "";
          lines.push(`  ${item.status === "failed" ? "✗" : "✓"} ${first}`.trimEnd());
        }
      }
      if (run.status !== "completed") lines.push(`[Run ${run.status}${reason}]`);
    }
  }
  return `${lines.join("\n")}\n`;
}
