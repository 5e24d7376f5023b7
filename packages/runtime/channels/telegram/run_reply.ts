/**
 * The text a settled Run sends to Telegram: the answer of a completed Run (its last
 * assistant message), or one line saying it stopped or failed and why.
 *
 * @module
 */

/** The parts of a Run (as `turn.list` returns it) a reply is made from. */
export interface SettledRun {
  /** The Run's status. */
  status: string;
  /** Why it settled so. */
  reasonCode: string | null;
  /** Its items. */
  items: { kind: string; role: string | null; content: string }[];
}

/**
 * The reply for a settled Run.
 *
 * @param run the Run
 * @returns the text to enqueue
 */
export function runReplyText(run: SettledRun): string {
  if (run.status === "cancelled") return "Stopped.";
  const answer = run.items.filter((item) => item.kind === "message" && item.role === "assistant")
    .map((item) => item.content.trim()).filter((text) => text !== "").at(-1);
  if (run.status === "completed") return answer ?? "(The run finished without an answer.)";
  const reason = run.reasonCode ?? "unknown";
  return answer === undefined
    ? `The run failed (${reason}).`
    : `${answer}\n\n(The run failed: ${reason}.)`;
}
