import { ModalFrame } from "../ModalFrame.tsx";
import {
  closeFilePreview,
  filePanel,
  loadMoreLines,
  reloadFilePreview,
} from "../../state/file_panel.ts";
import { t } from "../../i18n/i18n.ts";
import { conversation } from "../../state/store.ts";
import { mentionInDraft } from "../../state/draft_mentions.ts";
import { explainReason } from "../../i18n/reasons.ts";
import { useModalDialog } from "../modal_dialog.ts";
import { NumberedLines } from "./NumberedLines.tsx";
import "./file_panel.css";

/**
 * The read-only preview of a workspace file (`file.preview`), page by page, with line
 * numbers. When the file changed since its first page, the shown lines stay and the
 * panel says so with a reload; every other unavailable reason is explained. A modal
 * `<dialog>` docked to the right (full screen on a phone): the browser keeps focus
 * inside and Escape closes it.
 */
export function FilePanel() {
  const state = filePanel.value;
  const modal = useModalDialog(state !== null, closeFilePreview);
  if (!state) return null;
  const first = state.lines[0]?.number;
  const last = state.lines.at(-1)?.number;
  return (
    <ModalFrame
      modal={modal}
      class="file-panel"
      titleId="file-panel-title"
      title={
        <>
          <span class="muted">{t("file.panel")}</span> <code title={state.path}>{state.path}</code>
        </>
      }
      closeLabel={t("file.close")}
      closeAutofocus
      actions={
        <button
          type="button"
          class="mention-file"
          onClick={() => {
            const threadId = conversation.value?.threadId;
            if (!threadId) return;
            mentionInDraft(threadId, state.path);
            modal.close();
            // Back to the composer, where the path now waits in the draft.
            requestAnimationFrame(() =>
              document.querySelector<HTMLTextAreaElement>("form.composer textarea")?.focus()
            );
          }}
        >
          {t("file.mention")}
        </button>
      }
    >
      {state.lines.length > 0 && (
        <p class="muted file-range">
          {t("file.lines", { from: first!, to: last! })}
          {state.encoding && <>{" · "}{t("file.encoding", { encoding: state.encoding })}</>}
        </p>
      )}
      {state.lines.length > 0 && (
        <NumberedLines
          tableClass="file-lines"
          label={state.path}
          lines={state.lines.map((line) => ({
            key: line.number,
            numbers: [line.number],
            text: line.text,
          }))}
        />
      )}
      <footer>
        {state.loading && <p class="muted" role="status">{t("file.loading")}</p>}
        {!state.loading && state.unavailable && (
          <p role="status" class="file-unavailable">
            {explainReason("file", state.unavailable)} <code>{state.unavailable}</code>
          </p>
        )}
        {!state.loading && state.unavailable === "revision_changed" && (
          <button
            type="button"
            onClick={() => void reloadFilePreview()}
          >
            {t("file.reload")}
          </button>
        )}
        {!state.loading && !state.unavailable && state.truncationReason && (
          <p class="muted">{t("file.truncated", { reason: state.truncationReason })}</p>
        )}
        {!state.loading && !state.unavailable && state.nextOffset !== null && (
          <button
            type="button"
            onClick={() => void loadMoreLines()}
          >
            {t("file.more")}
          </button>
        )}
        {!state.loading && !state.unavailable && state.nextOffset === null && (
          <p class="muted">{state.lines.length === 0 ? t("file.empty") : t("file.end")}</p>
        )}
      </footer>
    </ModalFrame>
  );
}
