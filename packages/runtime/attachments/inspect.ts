/**
 * Attachments offered on `turn.start` and `run.steer`: each must be an absolute path
 * to a regular file of at most 8 MiB whose MIME type is plausible (images must carry
 * the magic bytes of their type). What is recorded on the user Item is kind, path,
 * mimeType, size and sha256.
 *
 * @module
 */
import {
  type Attachment,
  ATTACHMENT_MAX_BYTES,
  type AttachmentInput,
  RPC_ERROR_CODES,
  RpcError,
} from "@daedalus/protocol";

const IMAGE_MAGIC: Record<string, (bytes: Uint8Array) => boolean> = {
  "image/png": (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47,
  "image/jpeg": (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  "image/gif": (b) => b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38,
  "image/webp": (b) =>
    b[0] === 0x52 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x46 && b[8] === 0x57 &&
    b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50,
};

/** Image types the runtime can pass to a vision model. */
export const ATTACHMENT_IMAGE_TYPES: readonly string[] = Object.keys(IMAGE_MAGIC);

function refuse(index: number, message: string, cause?: unknown): never {
  throw new RpcError(
    RPC_ERROR_CODES.invalidParams,
    "attachment_invalid",
    `Attachment ${index + 1}: ${message}`,
    { field: `attachments[${index}].path` },
    cause === undefined ? undefined : { cause },
  );
}

/**
 * Checks attachments and fingerprints them.
 *
 * @param inputs the attachments as offered
 * @returns what the user Item records
 * @throws {RpcError} -32602 `attachment_invalid` naming the attachment and the problem
 */
export async function inspectAttachments(
  inputs: readonly AttachmentInput[],
): Promise<Attachment[]> {
  const out: Attachment[] = [];
  for (const [index, input] of inputs.entries()) {
    if (!isAbsolute(input.path)) refuse(index, "the path must be absolute");
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(input.path);
    } catch (error) {
      refuse(index, "the file cannot be read", error);
    }
    if (!info.isFile) refuse(index, "not a regular file");
    if (info.size > ATTACHMENT_MAX_BYTES) {
      refuse(index, `the file is larger than ${ATTACHMENT_MAX_BYTES} bytes`);
    }
    const bytes = await Deno.readFile(input.path);
    const mimeType = input.mimeType.toLowerCase();
    if (input.kind === "image") {
      const magic = IMAGE_MAGIC[mimeType];
      if (!magic) refuse(index, `images must be one of ${ATTACHMENT_IMAGE_TYPES.join(", ")}`);
      if (!magic(bytes)) refuse(index, `the file is not a ${mimeType} image`);
    } else if (!isTextMimeType(mimeType)) {
      refuse(index, "text attachments must have a text MIME type");
    } else if (!isUtf8(bytes)) {
      refuse(index, "the file is not UTF-8 text");
    }
    out.push({
      kind: input.kind,
      path: input.path,
      mimeType,
      size: bytes.byteLength,
      sha256: await hex(bytes),
    });
  }
  return out;
}

/**
 * The image type whose magic bytes `bytes` starts with.
 *
 * @param bytes the file's content (at least its first 12 bytes)
 * @returns one of {@linkcode ATTACHMENT_IMAGE_TYPES}, or null
 */
export function sniffImageType(bytes: Uint8Array): string | null {
  return ATTACHMENT_IMAGE_TYPES.find((type) => IMAGE_MAGIC[type]!(bytes)) ?? null;
}

/**
 * Whether a (lowercase) MIME type is one text attachments may carry.
 *
 * @param mimeType e.g. `text/markdown`
 * @returns true for `text/*` and the common structured-text application types
 */
export function isTextMimeType(mimeType: string): boolean {
  return /^(text\/|application\/(json|xml|x-yaml|yaml|toml|javascript))/.test(mimeType);
}

function isAbsolute(path: string): boolean {
  return path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\");
}

/**
 * Whether bytes decode as UTF-8 without a replacement.
 *
 * @param bytes the content
 * @returns true when they are valid UTF-8
 */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * The lowercase hex SHA-256 of bytes.
 *
 * @param bytes the content
 * @returns 64 hex digits
 */
export async function hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
