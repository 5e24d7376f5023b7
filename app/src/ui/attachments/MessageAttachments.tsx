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

/** An uploaded image's stored name (`<sha256>.<ext>`), which `GET /attachments/` serves. */
const SERVED_IMAGE = /^[0-9a-f]{64}\.(png|jpg|gif|webp)$/;

function thumbnailUrl(attachment: Attachment): string | null {
  if (attachment.kind !== "image") return null;
  const name = attachment.path.split(/[\\/]/).pop() ?? "";
  return SERVED_IMAGE.test(name) ? `/attachments/${name}` : null;
}

/**
 * The attachments recorded on a user item (`data.attachments`): name, kind and size,
 * with a thumbnail for images uploaded through `POST /upload` (served back by the
 * runtime; an image attached by path elsewhere has none).
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
          {thumbnailUrl(attachment) && (
            <img
              class="attachment-thumbnail"
              src={thumbnailUrl(attachment)!}
              alt=""
              loading="lazy"
              decoding="async"
              // A file removed from the runtime's home leaves the name and size only.
              onError={(event) => (event.currentTarget.hidden = true)}
            />
          )}
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
