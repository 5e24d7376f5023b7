/**
 * `POST /upload`: how a browser, which cannot name a path on the runtime's machine,
 * attaches a file. The body is the file's raw bytes; the optional `X-File-Name` header
 * carries its name percent-encoded (UTF-8), and `Content-Type` its declared type.
 *
 * The content decides what it is: png/jpeg/gif/webp magic bytes make an image (the
 * declared type is ignored), valid UTF-8 without NUL bytes makes text (the declared type
 * is kept when it is a text type, else `text/plain`), anything else is refused with 415
 * `attachment_not_supported`. The file is stored content-addressed as
 * `<dir>/<sha256>.<ext>` (directory 0700, file 0600, written to a temp file and moved
 * into place), so uploading the same bytes twice answers the same path. The answer is an
 * `UploadedAttachment`: pass its kind, path and mimeType on `turn.start` or `run.steer`.
 *
 * Refusals: 413 `payload_too_large` (over 8 MiB, refused from Content-Length or as soon
 * as the stream passes the limit, nothing written), 400 `attachment_empty`, 400
 * `invalid_request` (a malformed name), 415 `attachment_not_supported`.
 *
 * @module
 */
import type { Handler } from "hono";
import { join } from "node:path";
import { type Attachment, UPLOAD_NAME_MAX_CHARS, UploadedAttachment } from "@daedalus/protocol";
import type { ServerEnv } from "./auth.ts";
import { jsonResponse, readBodyWithin, transportError } from "./_http.ts";
import { writePrivateFile } from "./_private_file.ts";
import { UPLOAD_BODY_MAX_BYTES } from "./limits.ts";
import {
  hex,
  inspectAttachments,
  isTextMimeType,
  isUtf8,
  sniffImageType,
} from "../attachments/inspect.ts";

/** The request header carrying the file's name, percent-encoded. */
export const UPLOAD_NAME_HEADER = "x-file-name";

const IMAGE_EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
};

/** Options of {@linkcode uploadHandler}. */
export interface UploadOptions {
  /** Where uploads are stored (`<home>/attachments`); created 0700 on first use. */
  dir: string;
  /** Largest body; default {@linkcode UPLOAD_BODY_MAX_BYTES}. Larger is 413. */
  maxBodyBytes?: number;
}

/**
 * The `POST /upload` handler (mount it behind `requireAuth`).
 *
 * @param options the storage directory and the body limit
 * @returns the handler: 200 with an `UploadedAttachment`, or a transport refusal
 */
export function uploadHandler(options: UploadOptions): Handler<ServerEnv> {
  const maxBytes = options.maxBodyBytes ?? UPLOAD_BODY_MAX_BYTES;
  return async (c) => {
    const name = uploadName(c.req.header(UPLOAD_NAME_HEADER));
    if (name === null) {
      return transportError(400, "invalid_request", "The X-File-Name header is malformed");
    }
    const body = await readBodyWithin(c.req.raw, maxBytes);
    if (body === "too_large") {
      return transportError(
        413,
        "payload_too_large",
        `The file is larger than the limit of ${maxBytes} bytes`,
      );
    }
    if (body.byteLength === 0) return transportError(400, "attachment_empty", "The file is empty");
    const attachment = await storeUpload(options.dir, body, c.req.header("content-type"));
    if (attachment === null) {
      return transportError(
        415,
        "attachment_not_supported",
        "Only png, jpeg, gif and webp images and UTF-8 text can be attached",
      );
    }
    return jsonResponse(200, JSON.stringify(UploadedAttachment.parse({ ...attachment, name })));
  };
}

/**
 * Stores an uploaded file's bytes as this module's handler does (content decides the kind;
 * content-addressed, private), for other upload routes (the gateway's Dify upload).
 *
 * @param dir the attachments folder
 * @param bytes the file (not empty, within the upload limit)
 * @param declaredType its declared `Content-Type`, kept for text when it is a text type
 * @returns the attachment as `turn.start` accepts it, or null when it is neither a
 *   supported image nor UTF-8 text
 */
export async function storeUpload(
  dir: string,
  bytes: Uint8Array,
  declaredType: string | undefined,
): Promise<Attachment | null> {
  const kind = classify(bytes, declaredType);
  return kind === null ? null : await store(dir, bytes, kind);
}

interface Classified {
  kind: "image" | "text";
  mimeType: string;
  extension: string;
}

function classify(bytes: Uint8Array, declared: string | undefined): Classified | null {
  const image = sniffImageType(bytes);
  if (image !== null) {
    return { kind: "image", mimeType: image, extension: IMAGE_EXTENSIONS[image]! };
  }
  // Valid UTF-8 can still be binary (a file of zeros): NUL never appears in text files.
  if (bytes.includes(0) || !isUtf8(bytes)) return null;
  const type = (declared ?? "").split(";")[0]!.trim().toLowerCase();
  return { kind: "text", mimeType: isTextMimeType(type) ? type : "text/plain", extension: "txt" };
}

async function store(dir: string, bytes: Uint8Array, found: Classified): Promise<Attachment> {
  const sha256 = await hex(bytes);
  const path = join(dir, `${sha256}.${found.extension}`);
  // Content-addressed: an existing file already holds these bytes, unless someone edited it.
  const created = await writePrivateFile(path, bytes, { overwrite: false });
  if (!created && !(await holds(path, sha256))) {
    await writePrivateFile(path, bytes, { overwrite: true });
  } else if (!created) {
    // Uploaded again: it is fresh for the sweep of unsent uploads (attachments/sweep.ts).
    const now = new Date();
    await Deno.utime(path, now, now);
  }
  // The same checks `turn.start` makes, so what is answered here is accepted there.
  const [attachment] = await inspectAttachments([{
    kind: found.kind,
    path,
    mimeType: found.mimeType,
  }]);
  return attachment!;
}

async function holds(path: string, sha256: string): Promise<boolean> {
  try {
    return await hex(await Deno.readFile(path)) === sha256;
  } catch {
    return false;
  }
}

/**
 * The display name from the header: percent-decoded, without any directory part,
 * control characters removed; `attachment` when absent.
 */
function uploadName(header: string | undefined): string | null {
  if (header === undefined || header === "") return "attachment";
  let decoded: string;
  try {
    decoded = decodeURIComponent(header);
  } catch {
    return null;
  }
  // deno-lint-ignore no-control-regex
  const name = decoded.split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  if (name.length > UPLOAD_NAME_MAX_CHARS) return null;
  return name === "" ? "attachment" : name;
}
