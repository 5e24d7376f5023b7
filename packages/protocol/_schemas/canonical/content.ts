/**
 * Canonical content events: the answer's text, the model's reasoning and the files an
 * agent outputs, as the gateway's wires (Dify, AG-UI) consume them.
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";

/** The id of the message a delta extends (a Daedalus assistant item id, or the agent's own). */
const MessageRef = z.string().min(1).max(200);

export const CanonicalTextDelta = z.looseObject({
  type: z.literal("text_delta"),
  messageId: MessageRef,
  delta: z.string().min(1),
}).register(docs, {
  description: "Canonical event: a piece of the answer's text (Dify `agent_message`/`message`, " +
    "AG-UI `TEXT_MESSAGE_CONTENT`).",
});

export const CanonicalReasoningDelta = z.looseObject({
  type: z.literal("reasoning_delta"),
  messageId: MessageRef,
  delta: z.string().min(1),
}).register(docs, {
  description: "Canonical event: a piece of the model's reasoning (AG-UI `REASONING_*`).",
});

export const CanonicalFileOutput = z.looseObject({
  type: z.literal("file_output"),
  fileId: z.string().min(1).max(200),
  kind: z.enum(["image", "audio", "video", "document"]),
  mimeType: z.string().min(1).max(200),
  /** Where a client fetches the file (http(s) or a data: URL). */
  url: z.string().min(1),
  /** The file's name for display; null when it has none. */
  name: z.string().max(255).nullable(),
}).register(docs, {
  description: "Canonical event: a file the agent outputs (Dify `message_file`).",
});
