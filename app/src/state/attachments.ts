/**
 * The composer's attachments, per thread, for as long as the tab lives (files cannot go
 * into Web Storage, unlike the draft text). A file is checked against the limits, then
 * uploaded at once with `POST /upload`; the message sends the uploaded ones.
 *
 * @module
 */
import { signal } from "@preact/signals";
import {
  type AttachmentInput,
  ClientError,
  uploadAttachment,
  type UploadedAttachment,
} from "@daedalus/client";
import { checkFiles } from "./attachment_rules.ts";
import { t } from "../i18n/i18n.ts";

/** One attached file as its chip shows it. */
export interface PendingAttachment {
  /** A local id for keys and removal. */
  id: string;
  /** The file's name. */
  name: string;
  /** Its size in bytes. */
  size: number;
  /** Uploading, uploaded, or refused by the runtime. */
  state: "uploading" | "ready" | "failed";
  /** What the runtime stored, once uploaded. */
  uploaded: UploadedAttachment | null;
  /** Why the upload failed, localized. */
  error: string | null;
}

/** Attachments by thread id. */
export const attachmentsByThread = signal<Record<string, PendingAttachment[]>>({});
/** The last limit message (too large, too many), by thread; cleared on the next attach. */
export const attachmentNotice = signal<Record<string, string | null>>({});

const uploads = new Map<string, AbortController>();
/** Names of files uploaded in this tab, by stored path: the user item records only the path. */
const uploadedNames = new Map<string, string>();

/**
 * The name to show for an attachment of a sent message.
 *
 * @param path the stored path recorded on the user item
 * @returns the name it was uploaded under in this tab, else the path's last part
 */
export function attachmentName(path: string): string {
  return uploadedNames.get(path) ?? path.split(/[\\/]/).pop() ?? path;
}

/**
 * The attachments of a thread.
 *
 * @param threadId the thread
 * @returns its attachments, in the order attached
 */
export function attachmentsOf(threadId: string): PendingAttachment[] {
  return attachmentsByThread.value[threadId] ?? [];
}

function update(threadId: string, change: (list: PendingAttachment[]) => PendingAttachment[]) {
  attachmentsByThread.value = {
    ...attachmentsByThread.value,
    [threadId]: change(attachmentsOf(threadId)),
  };
}

function patch(threadId: string, id: string, fields: Partial<PendingAttachment>) {
  update(threadId, (list) => list.map((item) => item.id === id ? { ...item, ...fields } : item));
}

/**
 * Attaches files to a thread's message: refused ones are named in the notice, the rest
 * start uploading.
 *
 * @param threadId the thread
 * @param files the picked, pasted or dropped files
 */
export function attachFiles(threadId: string, files: readonly File[]): void {
  const checked = checkFiles(attachmentsOf(threadId).length, files);
  const notices = [
    ...checked.tooLarge.map((name) => t("attachments.tooLarge", { name })),
    ...(checked.overCount.length > 0 ? [t("attachments.tooMany")] : []),
  ];
  attachmentNotice.value = {
    ...attachmentNotice.value,
    [threadId]: notices.length > 0 ? notices.join(" ") : null,
  };
  for (const file of checked.accepted) void upload(threadId, file);
}

async function upload(threadId: string, file: File): Promise<void> {
  const id = crypto.randomUUID();
  const controller = new AbortController();
  uploads.set(id, controller);
  update(threadId, (list) => [
    ...list,
    { id, name: file.name, size: file.size, state: "uploading", uploaded: null, error: null },
  ]);
  try {
    const uploaded = await uploadAttachment(file, {
      url: location.origin,
      signal: controller.signal,
    });
    uploadedNames.set(uploaded.path, uploaded.name);
    patch(threadId, id, { state: "ready", uploaded });
  } catch (error) {
    if (controller.signal.aborted) return;
    patch(threadId, id, { state: "failed", error: uploadProblem(error) });
  } finally {
    uploads.delete(id);
  }
}

function uploadProblem(error: unknown): string {
  if (!(error instanceof ClientError) || error.code !== "upload_refused") {
    return t("attachments.failed");
  }
  if (error.reason === "payload_too_large") return t("attachments.refusedTooLarge");
  if (error.reason === "attachment_not_supported") return t("attachments.refusedType");
  if (error.reason === "attachment_empty") return t("attachments.refusedEmpty");
  return t("attachments.failed");
}

/**
 * Removes one attachment (and stops its upload).
 *
 * @param threadId the thread
 * @param id the attachment's local id
 */
export function removeAttachment(threadId: string, id: string): void {
  uploads.get(id)?.abort();
  update(threadId, (list) => list.filter((item) => item.id !== id));
}

/**
 * What the message carries: the uploaded attachments as `turn.start` takes them.
 *
 * @param threadId the thread
 * @returns kind, path and mimeType of each uploaded attachment
 */
export function attachmentInputs(threadId: string): AttachmentInput[] {
  return attachmentsOf(threadId).flatMap((item) =>
    item.uploaded
      ? [{ kind: item.uploaded.kind, path: item.uploaded.path, mimeType: item.uploaded.mimeType }]
      : []
  );
}

/**
 * Whether the message can go: no upload is still running (sending then would drop it).
 *
 * @param threadId the thread
 * @returns false while any attachment is uploading
 */
export function attachmentsSettled(threadId: string): boolean {
  return attachmentsOf(threadId).every((item) => item.state !== "uploading");
}

/**
 * Forgets the attachments that were sent; ones attached meanwhile stay.
 *
 * @param threadId the thread
 * @param sent the inputs that went with the message
 */
export function clearSent(threadId: string, sent: readonly AttachmentInput[]): void {
  const paths = new Set(sent.map((input) => input.path));
  update(
    threadId,
    (list) => list.filter((item) => !item.uploaded || !paths.has(item.uploaded.path)),
  );
  attachmentNotice.value = { ...attachmentNotice.value, [threadId]: null };
}
