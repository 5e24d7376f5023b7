/**
 * How recorded attachments enter a model call: images become `image_url` parts with
 * data URLs for vision models, everything else a text note with the path. A file
 * that changed or vanished since it was attached degrades to a note that says so —
 * never silently dropped.
 *
 * @module
 */
import type { Attachment, Item } from "@daedalus/protocol";
import type { ProviderContentPart } from "../providers/provider.ts";
import { hex } from "./inspect.ts";

/**
 * The content parts of every user item's attachments, and of the images a tool result
 * recorded (`data.images`, for vision models).
 *
 * @param items items of the input (only user items with attachments matter)
 * @param vision whether the model takes images
 * @returns parts by item id
 */
export async function renderAttachments(
  items: readonly Item[],
  vision: boolean,
): Promise<Map<string, ProviderContentPart[]>> {
  const parts = new Map<string, ProviderContentPart[]>();
  for (const item of items) {
    // A tool's images (an MCP result's, `mcp/tool_images.ts`) go to vision models only:
    // for others the result's text already says what it returned.
    const attachments = item.role === "user"
      ? item.data.attachments
      : item.kind === "tool_result" && vision
      ? item.data.images
      : undefined;
    if (!Array.isArray(attachments) || attachments.length === 0) continue;
    const rendered: ProviderContentPart[] = [];
    for (const attachment of attachments as Attachment[]) {
      rendered.push(await renderOne(attachment, vision));
    }
    parts.set(item.id, rendered);
  }
  return parts;
}

async function renderOne(attachment: Attachment, vision: boolean): Promise<ProviderContentPart> {
  const label = `${attachment.path} (${attachment.mimeType}, ${attachment.size} bytes)`;
  if (attachment.kind !== "image" || !vision) {
    const note = attachment.kind === "image"
      ? "this model does not take images; describe or read it with tools if needed"
      : "read it with the read tool when you need its content";
    return { type: "text", text: `[Attached ${attachment.kind}: ${label} — ${note}]` };
  }
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(attachment.path);
  } catch {
    return { type: "text", text: `[Attached image ${label} is no longer readable]` };
  }
  if (await hex(bytes) !== attachment.sha256) {
    return {
      type: "text",
      text: `[Attached image ${label} changed after it was attached; not shown]`,
    };
  }
  return { type: "image_url", url: `data:${attachment.mimeType};base64,${base64(bytes)}` };
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
