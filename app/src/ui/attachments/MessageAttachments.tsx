import type { Attachment } from "@daedalus/client";
import { attachmentName } from "../../state/attachments.ts";
import { formatBytes } from "../../state/attachment_rules.ts";
import { t } from "../../i18n/i18n.ts";
import "./attachments.css";

function isAttachment(value: unknown): value is Attachment {
  const candidate = value as Partial<Attachment> | null;
  return typeof candidate?.path === "string" && typeof candidate.size === "number" &&
    (candidate.kind === "image" || candidate.kind === "text");
}

/**
 * The attachments recorded on a user item (`data.attachments`): name, kind and size.
 * No thumbnails: the runtime serves no attachment bytes to the browser.
 */
export function MessageAttachments(props: { data: Record<string, unknown> }) {
  const list = Array.isArray(props.data.attachments)
    ? props.data.attachments.filter(isAttachment)
    : [];
  if (list.length === 0) return null;
  return (
    <ul class="message-attachments" aria-label={t("attachments.list")}>
      {list.map((attachment) => (
        <li key={attachment.path} class={`message-attachment kind-${attachment.kind}`}>
          <span class="attachment-name" title={attachment.path}>
            {attachmentName(attachment.path)}
          </span>
          <span class="attachment-size">
            {t(`attachments.kind.${attachment.kind}`)} · {formatBytes(attachment.size)}
          </span>
        </li>
      ))}
    </ul>
  );
}
