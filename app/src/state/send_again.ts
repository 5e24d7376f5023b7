/**
 * "Try again" after a failed or cancelled Run: the turn's own message (text and
 * attachments) is sent once more as a new turn. Nothing of the old Run is replayed —
 * its tool results stay as they settled (seed 000 §5, "continue after failure").
 *
 * @module
 */
import type { AttachmentInput } from "@daedalus/client";
import type { ConversationState, RunView } from "./projection.ts";

/** What a new turn needs to repeat a message. */
export interface RepeatedMessage {
  content: string;
  attachments: AttachmentInput[];
}

/**
 * The message of a turn, to send again.
 *
 * @param state the conversation
 * @param turnId the turn whose Run failed or was cancelled
 * @returns its user message, or null when the turn or its message is not loaded
 */
export function messageOfTurn(state: ConversationState, turnId: string): RepeatedMessage | null {
  const turn = state.turns.find((candidate) => candidate.id === turnId);
  const item = turn?.runs.flatMap((run) => run.items).find((candidate) =>
    candidate.kind === "message" && candidate.role === "user"
  );
  if (!item || item.content.trim() === "") return null;
  const recorded = Array.isArray(item.data.attachments) ? item.data.attachments : [];
  const attachments = recorded.flatMap((value): AttachmentInput[] => {
    const a = value as Partial<AttachmentInput> | null;
    return a && (a.kind === "image" || a.kind === "text") && typeof a.path === "string" &&
        typeof a.mimeType === "string"
      ? [{ kind: a.kind, path: a.path, mimeType: a.mimeType }]
      : [];
  });
  return { content: item.content, attachments };
}

/**
 * Whether "Try again" applies to a Run: it failed or was cancelled and it is the
 * thread's latest Run (so nothing newer is queued or running).
 *
 * @param latestRunId the id of the conversation's latest Run
 * @param run the settled Run
 * @returns true when offering it makes sense
 */
export function canSendAgain(latestRunId: string | null, run: RunView): boolean {
  return (run.status === "failed" || run.status === "cancelled") && run.id === latestRunId;
}
