/**
 * The feed's branch controls: Edit on a user message (an inline editor that sends the
 * edited text on a fork), Regenerate on an answer, and the switcher ‹ 2/3 › on a message
 * whose turn has siblings. Files are not forked, and the editor says so.
 *
 * @module
 */
import type { Item, TurnSiblings } from "@daedalus/client";
import { useState } from "preact/hooks";
import { t } from "../../i18n/i18n.ts";
import { activeRun, models, selectedModel } from "../../state/store.ts";
import { editAndResend, regenerate, switchSibling } from "../../state/branching.ts";
import { currentEffort, effortParam } from "../../state/reasoning_effort.ts";

/** The composer's reasoning effort for the selected model, as `turn.start` takes it. */
function composerEffort() {
  const model = models.value.find((m) => `${m.providerId}/${m.id}` === selectedModel.value);
  return model ? effortParam(model, currentEffort(model)) : undefined;
}

/** ‹ 2/3 ›: moves between the versions of a turn (its siblings), each on its own branch. */
export function SiblingSwitcher(props: { turnId: string; siblings: TurnSiblings }) {
  const { index, count } = props.siblings;
  const [busy, setBusy] = useState(false);
  const go = async (step: -1 | 1) => {
    setBusy(true);
    try {
      await switchSibling(props.turnId, step);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span class="branch-switcher" role="group" aria-label={t("branch.switcher")}>
      <button
        type="button"
        class="branch-step"
        aria-label={t("branch.previous")}
        disabled={busy || index === 0}
        onClick={() => void go(-1)}
      >
        ‹
      </button>
      <span class="branch-position">
        {t("branch.position", { index: index + 1, count })}
      </span>
      <button
        type="button"
        class="branch-step"
        aria-label={t("branch.next")}
        disabled={busy || index >= count - 1}
        onClick={() => void go(1)}
      >
        ›
      </button>
    </span>
  );
}

/** Edit on the user's message: opens the inline editor in its place. */
export function EditButton(props: { onEdit: () => void }) {
  if (activeRun.value !== null) return null;
  return (
    <button type="button" class="message-action" onClick={props.onEdit}>
      {t("branch.edit")}
    </button>
  );
}

/** The inline editor of a user message: Save & send forks before its turn and sends. */
export function MessageEditor(props: { item: Item; onClose: () => void }) {
  const [text, setText] = useState(props.item.content);
  const [sending, setSending] = useState(false);
  const save = async () => {
    if (text.trim() === "") return;
    setSending(true);
    const sent = await editAndResend(props.item.turnId, text, composerEffort());
    setSending(false);
    if (sent) props.onClose();
  };
  return (
    <form
      class="message-editor"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <textarea
        aria-label={t("branch.editLabel")}
        value={text}
        rows={Math.min(12, Math.max(2, text.split("\n").length))}
        onInput={(event) => setText((event.target as HTMLTextAreaElement).value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") props.onClose();
        }}
      />
      <p class="message-editor-note">{t("branch.filesNote")}</p>
      <div class="message-editor-actions">
        <button type="button" onClick={props.onClose} disabled={sending}>
          {t("branch.cancel")}
        </button>
        <button type="submit" class="primary" disabled={sending || text.trim() === ""}>
          {t("branch.save")}
        </button>
      </div>
    </form>
  );
}

/** Regenerate on an answer: the same message once more, on a fork before its turn. */
export function RegenerateButton(props: { turnId: string }) {
  const [busy, setBusy] = useState(false);
  if (activeRun.value !== null) return null;
  return (
    <button
      type="button"
      class="message-action"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await regenerate(props.turnId, composerEffort());
        } finally {
          setBusy(false);
        }
      }}
    >
      {t("branch.regenerate")}
    </button>
  );
}
