/**
 * Dify's files: `POST /files/upload` (multipart `file` and `user`, as dify-client's
 * `fileUpload` sends them) stores the file as the runtime's own `/upload` does
 * (content-addressed in `<home>/attachments`, the content decides image or text) and
 * answers Dify's `{id, name, size, extension, mime_type, created_by, created_at}`; a chat
 * request's `local_file` entry naming that id becomes the turn's attachment.
 *
 * `remote_url` entries are refused (400 `invalid_param`): the runtime would have to fetch
 * a URL a caller chose, which is a server-side request forgery hole (the owner's loopback
 * services, a cloud metadata address) and against this machine's loopback-only network
 * rule. A client uploads the file instead.
 *
 * @module
 */
import { Hono } from "hono";
import { extname } from "node:path";
import type { AttachmentInput } from "@daedalus/protocol";
import { readBodyWithin } from "../server/_http.ts";
import { UPLOAD_BODY_MAX_BYTES } from "../server/limits.ts";
import { storeUpload } from "../server/upload.ts";
import type { GatewayEnv } from "./key_auth.ts";
import type { ConversationOwner, ConversationOwners } from "./conversation_owners.ts";
import { difyError, type DifyErrorBody, type DifyFile } from "./dify_request.ts";
import { DIFY_UPLOAD_FRAMING_MAX_BYTES } from "./limits.ts";

/** What {@linkcode difyFileRoutes} needs. */
export interface DifyFileRouteDeps {
  /** Where uploads are stored (`<home>/attachments`). */
  attachmentsDir: string;
  /** Who owns each upload. */
  owners: ConversationOwners;
  /** Largest file (bytes); default the runtime's upload limit. */
  maxFileBytes?: number;
  /** The time (epoch ms); default `Date.now`. */
  now?: () => number;
}

/** The message of a refused `remote_url` file. */
export const REMOTE_URL_REFUSED = "remote_url files are not supported: this runtime does " +
  "not fetch URLs; upload the file with POST /files/upload and send it as local_file";

/**
 * The upload route.
 *
 * @param deps the attachments folder, the owners, the limit
 * @returns a Hono app to mount behind `gatewayKeyAuth`
 */
export function difyFileRoutes(deps: DifyFileRouteDeps): Hono<GatewayEnv> {
  const maxBytes = deps.maxFileBytes ?? UPLOAD_BODY_MAX_BYTES;
  const now = deps.now ?? Date.now;
  const app = new Hono<GatewayEnv>();
  app.post("/files/upload", async (c) => {
    const refuse = (status: 400 | 413 | 415, code: string, message: string) =>
      c.json(difyError(status, code, message), status);
    const body = await readBodyWithin(c.req.raw, maxBytes + DIFY_UPLOAD_FRAMING_MAX_BYTES);
    if (body === "too_large") {
      return refuse(413, "file_too_large", `File size exceeded. The limit is ${maxBytes} bytes.`);
    }
    let form: FormData;
    try {
      form = await new Response(body as Uint8Array<ArrayBuffer>, {
        headers: { "Content-Type": c.req.header("Content-Type") ?? "" },
      }).formData();
    } catch {
      return refuse(400, "no_file_uploaded", "Please upload your file.");
    }
    const file = form.get("file");
    if (!(file instanceof File)) return refuse(400, "no_file_uploaded", "Please upload your file.");
    if (form.getAll("file").length > 1) {
      return refuse(400, "too_many_files", "Only one file is allowed.");
    }
    const user = form.get("user");
    if (typeof user !== "string" || user === "") {
      return refuse(400, "invalid_param", "Arg user must be provided.");
    }
    if (file.size > maxBytes) {
      return refuse(413, "file_too_large", `File size exceeded. The limit is ${maxBytes} bytes.`);
    }
    if (file.size === 0) return refuse(400, "no_file_uploaded", "Please upload your file.");
    const bytes = new Uint8Array(await file.arrayBuffer());
    const stored = await storeUpload(deps.attachmentsDir, bytes, file.type || undefined);
    if (stored === null) {
      return refuse(
        415,
        "unsupported_file_type",
        "File type not allowed: only png, jpeg, gif and webp images and UTF-8 text.",
      );
    }
    const id = crypto.randomUUID();
    const name = uploadName(file.name);
    await deps.owners.addUpload(id, {
      keyId: c.get("gatewayKey").keyId,
      user,
      attachment: { kind: stored.kind, path: stored.path, mimeType: stored.mimeType },
      name,
      size: bytes.byteLength,
    });
    return c.json({
      id,
      name,
      size: bytes.byteLength,
      extension: extname(stored.path).slice(1),
      mime_type: stored.mimeType,
      created_by: user,
      created_at: Math.floor(now() / 1000),
    }, 201);
  });
  return app;
}

/**
 * The attachments of a chat request's files: each `local_file` must name an upload of the
 * same key and user; `remote_url` is refused (see the module's doc).
 *
 * @param files the request's files
 * @param owner the caller
 * @param owners the uploads' owners
 * @returns the attachments for `turn.start`, or the 400 error body
 */
export function difyAttachments(
  files: readonly DifyFile[],
  owner: ConversationOwner,
  owners: ConversationOwners,
): { ok: true; attachments: AttachmentInput[] } | { ok: false; error: DifyErrorBody } {
  const attachments: AttachmentInput[] = [];
  for (const [index, file] of files.entries()) {
    if (file.transfer_method === "remote_url") {
      return { ok: false, error: difyError(400, "invalid_param", REMOTE_URL_REFUSED) };
    }
    const upload = owners.upload(file.upload_file_id, owner);
    if (upload === undefined) {
      return {
        ok: false,
        error: difyError(400, "invalid_param", `files.${index}: upload_file_id is not an upload`),
      };
    }
    attachments.push({ ...upload.attachment });
  }
  return { ok: true, attachments };
}

/** The display name: no directory part, no control characters; `file` when none is left. */
function uploadName(name: string): string {
  // deno-lint-ignore no-control-regex
  const cleaned = name.split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return cleaned === "" ? "file" : cleaned.slice(0, 255);
}
