/**
 * `daedalus run --attach FILE`: the command runs on the runtime's machine, so it offers
 * each file by its absolute path, as `turn.start` takes it; the content decides the kind
 * the way an upload's does (image magic bytes, else UTF-8 text), and `turn.start` checks
 * the file again (size, type) when it records it.
 *
 * @module
 */
import { extname } from "node:path";
import { ATTACHMENT_MAX_BYTES, type AttachmentInput } from "@daedalus/protocol";
import { isUtf8, sniffImageType } from "../attachments/inspect.ts";
import { UsageError } from "./args.ts";

const TEXT_TYPES: Record<string, string> = {
  ".md": "text/markdown",
  ".json": "application/json",
  ".yaml": "application/yaml",
  ".yml": "application/yaml",
  ".csv": "text/csv",
  ".html": "text/html",
};

/**
 * Describes the files to attach.
 *
 * @param paths absolute paths
 * @returns one attachment input per file, in order
 * @throws {UsageError} for a file that is missing, not a file, too large, or neither an
 *   image nor UTF-8 text
 */
export async function describeAttachments(paths: readonly string[]): Promise<AttachmentInput[]> {
  const inputs: AttachmentInput[] = [];
  for (const path of paths) {
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(path);
    } catch {
      throw new UsageError(`--attach ${path}: no such file`, "run");
    }
    if (!info.isFile) throw new UsageError(`--attach ${path}: not a file`, "run");
    if (info.size > ATTACHMENT_MAX_BYTES) {
      throw new UsageError(
        `--attach ${path}: ${info.size} bytes is over the ${ATTACHMENT_MAX_BYTES}-byte limit`,
        "run",
      );
    }
    const bytes = await Deno.readFile(path);
    const image = sniffImageType(bytes);
    if (image) {
      inputs.push({ kind: "image", path, mimeType: image });
    } else if (bytes.length > 0 && isUtf8(bytes) && !bytes.includes(0)) {
      const mimeType = TEXT_TYPES[extname(path).toLowerCase()] ?? "text/plain";
      inputs.push({ kind: "text", path, mimeType });
    } else {
      throw new UsageError(
        `--attach ${path}: not an image (png, jpeg, gif, webp) or non-empty UTF-8 text`,
        "run",
      );
    }
  }
  return inputs;
}
