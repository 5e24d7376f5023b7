/**
 * `GET /attachments/<sha256>.<ext>`: the images uploaded with `POST /upload`, so the app
 * can show a thumbnail of what a message carried. Only content-addressed image names
 * are served (no text, no other path: the name is matched against a strict pattern
 * before the directory is touched), with their image type, `nosniff`, a sandboxing CSP
 * and an immutable private cache (the name is the content's hash).
 *
 * @module
 */
import type { Handler } from "hono";
import { join } from "node:path";
import type { ServerEnv } from "./auth.ts";
import { transportError } from "./_http.ts";

const IMAGE_NAME = /^([0-9a-f]{64})\.(png|jpg|gif|webp)$/;
const IMAGE_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};

/**
 * The handler for `GET /attachments/:name` (mount it behind `requireAuth`).
 *
 * @param dir where uploads are stored (`<home>/attachments`)
 * @returns the handler: 200 with the image, or 404 `not_found`
 */
export function attachmentImagesHandler(dir: string): Handler<ServerEnv> {
  return async (c) => {
    const match = IMAGE_NAME.exec(c.req.param("name") ?? "");
    if (!match) return transportError(404, "not_found", "No such attachment image");
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = await Deno.readFile(join(dir, match[0]));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        return transportError(404, "not_found", "No such attachment image");
      }
      throw error;
    }
    return new Response(bytes, {
      status: 200,
      headers: {
        "content-type": IMAGE_TYPES[match[2]!]!,
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; sandbox",
        "cache-control": "private, max-age=31536000, immutable",
      },
    });
  };
}
