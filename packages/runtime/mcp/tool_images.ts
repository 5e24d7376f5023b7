/**
 * Images an MCP tool returned, kept where a vision model can be shown them: each is written
 * beside the call's artifacts (`<artifacts>/<thread>/<item>-image-<n>.<ext>`) and recorded
 * on the result as an attachment (`details.images`: kind, path, type, size, sha256). The
 * next model call of the Run renders them as image parts when the model takes images
 * (`attachments/render.ts`), the same way as a user's attached image; other models read
 * the result's note. An image of another type, too big, or that cannot be written stays a
 * note only.
 *
 * @module
 */
import { join } from "node:path";
import { ATTACHMENT_MAX_BYTES } from "@daedalus/protocol";
import type { ToolContext } from "@daedalus/tools";
import { hex } from "../attachments/inspect.ts";

/** The image types a model is sent, with the file extension each is saved under. */
const IMAGE_TYPES: Readonly<Record<string, string>> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
};

/** A safe path segment (the runtime's ids are). */
const SAFE_SEGMENT = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,200}$/;

/** An image block of a result: base64 data and its type. */
export interface ToolImage {
  /** Base64 data. */
  readonly data: string;
  /** Its MIME type. */
  readonly mimeType: string;
}

/** A saved image, as a tool result records it (the protocol's Attachment shape). */
export interface SavedToolImage {
  /** Always `image`. */
  readonly kind: "image";
  /** Where it was written. */
  readonly path: string;
  /** Its type. */
  readonly mimeType: string;
  /** Its size in bytes. */
  readonly size: number;
  /** SHA-256 of its bytes (a changed file is not shown). */
  readonly sha256: string;
}

/**
 * Writes the images of one call.
 *
 * @param images the result's image blocks, in order
 * @param context the call's ids and artifacts folder
 * @returns the saved ones (others are left out)
 */
export async function saveToolImages(
  images: readonly ToolImage[],
  context: Pick<ToolContext, "artifactsRoot" | "threadId" | "itemId">,
): Promise<SavedToolImage[]> {
  const { artifactsRoot, threadId, itemId } = context;
  if (typeof artifactsRoot !== "string" || artifactsRoot === "") return [];
  if (typeof threadId !== "string" || !SAFE_SEGMENT.test(threadId)) return [];
  if (typeof itemId !== "string" || !SAFE_SEGMENT.test(itemId)) return [];
  const folder = join(context.artifactsRoot, context.threadId);
  const saved: SavedToolImage[] = [];
  for (const [index, image] of images.entries()) {
    const extension = IMAGE_TYPES[image.mimeType];
    if (extension === undefined) continue;
    let bytes: Uint8Array;
    try {
      bytes = Uint8Array.from(atob(image.data.replace(/\s/g, "")), (char) => char.charCodeAt(0));
    } catch {
      continue; // not base64: the note says what it was
    }
    if (bytes.length === 0 || bytes.length > ATTACHMENT_MAX_BYTES) continue;
    const path = join(folder, `${context.itemId}-image-${index + 1}.${extension}`);
    try {
      await Deno.mkdir(folder, { recursive: true });
      await Deno.writeFile(path, bytes, { mode: 0o600 });
    } catch {
      continue; // the note stays; nothing is shown
    }
    saved.push({
      kind: "image",
      path,
      mimeType: image.mimeType,
      size: bytes.length,
      sha256: await hex(bytes),
    });
  }
  return saved;
}
