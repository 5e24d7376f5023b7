import type { PendingAttachment } from "../../state/attachments.ts";
import { formatBytes } from "../../state/attachment_rules.ts";
import { t } from "../../i18n/i18n.ts";
import "./attachments.css";

/**
 * The composer's attached files: name, size, upload state and a remove button each.
 * The list is announced politely, so screen readers hear an upload finish or fail.
 */
export function AttachmentChips(
  props: { items: PendingAttachment[]; onRemove: (id: string) => void },
) {
  if (props.items.length === 0) return null;
  return (
    <ul class="attachment-chips" aria-label={t("attachments.list")} aria-live="polite">
      {props.items.map((item) => (
        <li key={item.id} class={`attachment-chip state-${item.state}`}>
          <span class="attachment-name" title={item.name}>{item.name}</span>
          <span class="attachment-size">{formatBytes(item.size)}</span>
          <span class="attachment-state" role={item.state === "failed" ? "alert" : undefined}>
            {item.state === "uploading" && t("attachments.uploading")}
            {item.state === "ready" && t("attachments.ready")}
            {item.state === "failed" && (item.error ?? t("attachments.failed"))}
          </span>
          <button
            type="button"
            class="attachment-remove"
            aria-label={t("attachments.remove", { name: item.name })}
            onClick={() => props.onRemove(item.id)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
