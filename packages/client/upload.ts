/**
 * Uploading an attachment with `POST /upload`: the file's bytes as the body, its name
 * percent-encoded in `X-File-Name`, its type as `Content-Type`. The runtime stores it
 * and answers where; the answer is validated as an `UploadedAttachment`, whose `kind`,
 * `path` and `mimeType` are what `turn.start` and `run.steer` take.
 *
 * @module
 */
import { ATTACHMENT_MAX_BYTES, UploadedAttachment } from "@daedalus/protocol";
import { ClientError } from "./errors.ts";
import { uploadUrl } from "./urls.ts";

/** Options of {@linkcode uploadAttachment}. */
export interface UploadOptions {
  /** The runtime's base URL, e.g. `http://127.0.0.1:7420`. */
  url: string | URL;
  /** The access token, sent as `Authorization: Bearer`; leave it out to rely on the cookie. */
  token?: string;
  /** The name to send; defaults to the `File`'s name. */
  name?: string;
  /** The fetch to use; defaults to `globalThis.fetch`. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Aborts the upload. */
  signal?: AbortSignal;
}

/**
 * Uploads one file as an attachment.
 *
 * @param file the file (a `File` carries its name and type; any `Blob` works)
 * @param options the runtime's URL, the token, a name, a signal
 * @returns the stored attachment
 * @throws {ClientError} `upload_refused` with `status` and the server's `reason`
 *   (`payload_too_large` — also raised before sending for files over 8 MiB —,
 *   `attachment_empty`, `attachment_not_supported`, `unauthorized`, …);
 *   `invalid_message` when the answer is not an `UploadedAttachment`
 * @example
 * ```ts ignore
 * const attachment = await uploadAttachment(file, { url: location.origin });
 * const { kind, path, mimeType } = attachment;
 * await client.call("turn.start", { threadId, content, attachments: [{ kind, path, mimeType }] });
 * ```
 */
export async function uploadAttachment(
  file: Blob,
  options: UploadOptions,
): Promise<UploadedAttachment> {
  if (file.size > ATTACHMENT_MAX_BYTES) {
    throw new ClientError(
      "upload_refused",
      `The file is larger than the limit of ${ATTACHMENT_MAX_BYTES} bytes`,
      { status: 413, reason: "payload_too_large" },
    );
  }
  const headers: Record<string, string> = {
    "content-type": file.type || "application/octet-stream",
  };
  const name = options.name ?? (file as Partial<File>).name;
  if (name) headers["x-file-name"] = encodeURIComponent(name);
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const post = options.fetch ?? ((input, init) => fetch(input, init));
  const response = await post(uploadUrl(options.url), {
    method: "POST",
    headers,
    body: file,
    signal: options.signal,
    credentials: "same-origin",
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw refusal(response.status, body);
  const parsed = UploadedAttachment.safeParse(body);
  if (!parsed.success) {
    throw new ClientError("invalid_message", "POST /upload answered with something else", {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

function refusal(status: number, body: unknown): ClientError {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  const reason = typeof error?.code === "string" ? error.code : undefined;
  const message = typeof error?.message === "string"
    ? error.message
    : `POST /upload answered HTTP ${status}`;
  return new ClientError("upload_refused", message, { status, reason });
}
