/**
 * Edit and resend, Regenerate and the branch switcher: each is one user action that forks
 * the thread (`branch.create` from the turn before the one redone) and sends a message on
 * the fork, or switches the branch the thread shows (`thread.set_active_branch`); then the
 * feed reloads the branch's history. Workspace files are not forked (Undo file changes is
 * the tool for them).
 *
 * @module
 */
import type { ReasoningEffort } from "@daedalus/client";
import type { ConversationState, TurnView } from "./projection.ts";
import { messageOfTurn } from "./send_again.ts";
import { conversation, openThread, report, rpc, send, showBranch } from "./store.ts";

/**
 * The turn a redo of `turnId` forks from: the turn before it in the shown history.
 *
 * @param state the conversation
 * @param turnId the turn to redo
 * @returns the previous turn's id, null for a first turn, undefined when unknown (the
 *   turn is not shown, or its previous turn is neither told nor loaded)
 */
export function forkPointOf(state: ConversationState, turnId: string): string | null | undefined {
  const index = state.turns.findIndex((turn) => turn.id === turnId);
  if (index === -1) return undefined;
  const turn = state.turns[index]!;
  if (turn.parentTurnId !== undefined) return turn.parentTurnId;
  if (turn.ordinal === 1) return null;
  const previous = state.turns[index - 1];
  return previous && previous.ordinal === turn.ordinal - 1 ? previous.id : undefined;
}

/**
 * The branch of the sibling `step` places away from a turn (‹ is -1, › is +1).
 *
 * @param turn the shown turn
 * @param step -1 or +1
 * @returns the sibling's branch, or null when there is none that way
 */
export function siblingBranch(turn: TurnView, step: -1 | 1): string | null {
  const siblings = turn.siblings;
  if (!siblings) return null;
  return siblings.branchIds[siblings.index + step] ?? null;
}

/** Forks the open thread before `turnId` and sends `content` (with attachments) there. */
async function redo(
  turnId: string,
  message: {
    content: string;
    attachments: { kind: "image" | "text"; path: string; mimeType: string }[];
  },
  reasoningEffort: ReasoningEffort | null | undefined,
): Promise<boolean> {
  const open = conversation.value;
  if (!open || message.content.trim() === "") return false;
  const fromTurnId = forkPointOf(open, turnId);
  if (fromTurnId === undefined) return false;
  let branchId: string;
  try {
    branchId = (await rpc().call("branch.create", {
      threadId: open.threadId,
      fromTurnId,
      clientRequestId: crypto.randomUUID(),
    })).branch.id;
  } catch (error) {
    report(error);
    return false;
  }
  const sent = await send(message.content, {
    attachments: message.attachments,
    branchId,
    ...(reasoningEffort !== undefined ? { reasoningEffort } : {}),
  });
  // The fork is the active branch now, sent or not: show its history.
  await openThread(open.threadId);
  return sent;
}

/**
 * Edit and resend: the user message of `turnId` with new text, on a fork that shares the
 * history before it; its attachments go with it.
 *
 * @param turnId the turn whose message was edited
 * @param content the edited text
 * @param reasoningEffort the composer's effort for the selected model
 * @returns whether the new turn was accepted
 */
export function editAndResend(
  turnId: string,
  content: string,
  reasoningEffort?: ReasoningEffort | null,
): Promise<boolean> {
  const open = conversation.value;
  const original = open ? messageOfTurn(open, turnId) : null;
  return redo(turnId, { content, attachments: original?.attachments ?? [] }, reasoningEffort);
}

/**
 * Regenerate: the same message (text and attachments) once more, on a fork that shares
 * the history before it, so the first answer stays on its own branch.
 *
 * @param turnId the turn whose answer is regenerated
 * @param reasoningEffort the composer's effort for the selected model
 * @returns whether the new turn was accepted
 */
export function regenerate(
  turnId: string,
  reasoningEffort?: ReasoningEffort | null,
): Promise<boolean> {
  const open = conversation.value;
  const message = open ? messageOfTurn(open, turnId) : null;
  if (!message) return Promise.resolve(false);
  return redo(turnId, message, reasoningEffort);
}

/**
 * Shows the branch of a turn's sibling and reloads the feed with its history.
 *
 * @param turnId the shown turn
 * @param step -1 for the previous sibling, +1 for the next
 * @returns whether the thread switched
 */
export async function switchSibling(turnId: string, step: -1 | 1): Promise<boolean> {
  const open = conversation.value;
  const turn = open?.turns.find((candidate) => candidate.id === turnId);
  const branchId = turn ? siblingBranch(turn, step) : null;
  if (!open || !branchId) return false;
  if (!await showBranch(open.threadId, branchId)) return false;
  // A new history entry: Back returns to the branch shown before.
  await openThread(open.threadId);
  return true;
}
