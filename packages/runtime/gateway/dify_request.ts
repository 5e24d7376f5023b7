/**
 * The body of Dify's `POST /chat-messages`, validated, and Dify's error form. Missing
 * `query` or `user`, a non-UUID `conversation_id`, a bad `response_mode` or `files` give
 * `{code: "invalid_param", message, status: 400}` (WIRE.md §1); unknown fields are
 * ignored, as Dify ignores them.
 *
 * @module
 */
import { z } from "zod";
import { ATTACHMENTS_MAX_COUNT, MESSAGE_CONTENT_MAX_CHARS } from "@daedalus/protocol";
import { isUuid } from "./conversation_ids.ts";
import {
  DIFY_INPUT_NAME_MAX_CHARS,
  DIFY_INPUT_VALUE_MAX_CHARS,
  DIFY_INPUTS_MAX_COUNT,
} from "./limits.ts";

/** Dify's error body. */
export interface DifyErrorBody {
  /** A stable code: `invalid_param`, `unauthorized`, `not_found`, `too_many_requests`, … */
  code: string;
  /** What went wrong. */
  message: string;
  /** The HTTP status, repeated. */
  status: number;
}

/** A validated chat request. */
export interface DifyChatRequest {
  /** The user's message. */
  query: string;
  /** The app's variables (strings and numbers; a null value is dropped as "not given"). */
  inputs: Record<string, string | number>;
  /** The end user's id (stop must name the same). */
  user: string;
  /** Streaming (SSE) or blocking (one JSON answer); Dify's default is blocking. */
  responseMode: "streaming" | "blocking";
  /** The conversation to continue, or null for a new one. */
  conversationId: string | null;
  /** Files offered with the message. */
  files: DifyFile[];
}

/** A file of a chat request. */
export type DifyFile =
  | { type: DifyFileType; transfer_method: "remote_url"; url: string }
  | { type: DifyFileType; transfer_method: "local_file"; upload_file_id: string };

/** Dify's file types. */
export type DifyFileType = "image" | "document" | "audio" | "video";

const FileType = z.enum(["image", "document", "audio", "video"]);
const File = z.union([
  z.looseObject({ type: FileType, transfer_method: z.literal("remote_url"), url: z.url() }),
  z.looseObject({
    type: FileType,
    transfer_method: z.literal("local_file"),
    upload_file_id: z.string().min(1).max(200),
  }),
]);

const Body = z.looseObject({
  query: z.string({ error: "query is required" }).min(1, { error: "query is required" })
    .max(MESSAGE_CONTENT_MAX_CHARS),
  inputs: z.record(
    z.string().min(1).max(DIFY_INPUT_NAME_MAX_CHARS),
    z.union([z.string().max(DIFY_INPUT_VALUE_MAX_CHARS), z.number(), z.null()], {
      error: "a value must be a string or a number",
    }),
  ).refine((inputs) => Object.keys(inputs).length <= DIFY_INPUTS_MAX_COUNT, {
    error: `at most ${DIFY_INPUTS_MAX_COUNT} inputs`,
  }).nullable().optional(),
  user: z.string({ error: "Arg user must be provided." })
    .min(1, { error: "Arg user must be provided." }).max(200),
  response_mode: z.enum(["streaming", "blocking"]).nullable().optional(),
  conversation_id: z.string().nullable().optional().refine(
    (id) => id === undefined || id === null || id === "" || isUuid(id),
    { error: "conversation_id is not a valid UUID" },
  ),
  files: z.array(File).max(ATTACHMENTS_MAX_COUNT).nullable().optional(),
  auto_generate_name: z.boolean().optional(),
});

/**
 * Dify's error body.
 *
 * @param status the HTTP status
 * @param code the code
 * @param message the message
 * @returns `{code, message, status}`
 */
export function difyError(status: number, code: string, message: string): DifyErrorBody {
  return { code, message, status };
}

/**
 * Validates a chat request's parsed JSON body.
 *
 * @param body the body (anything JSON.parse gave)
 * @returns the request, or the 400 error body to answer with
 */
export function parseDifyChatRequest(
  body: unknown,
): { ok: true; request: DifyChatRequest } | { ok: false; error: DifyErrorBody } {
  const parsed = Body.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.map(String).join(".");
    // The three fields with Dify's own wording say it as Dify does; others name the field.
    const own = field === "query" || field === "user" || field === "conversation_id";
    const message = own ? issue.message : `${field || "body"}: ${issue?.message ?? "invalid"}`;
    return { ok: false, error: difyError(400, "invalid_param", message) };
  }
  const value = parsed.data;
  const inputs = Object.fromEntries(
    Object.entries(value.inputs ?? {}).filter((entry): entry is [string, string | number] =>
      entry[1] !== null
    ),
  );
  if (difyTurnContent(value.query, inputs).length > MESSAGE_CONTENT_MAX_CHARS) {
    return {
      ok: false,
      error: difyError(400, "invalid_param", "query and inputs together are too long"),
    };
  }
  return {
    ok: true,
    request: {
      query: value.query,
      inputs,
      user: value.user,
      responseMode: value.response_mode ?? "blocking",
      conversationId: value.conversation_id ? value.conversation_id : null,
      files: (value.files ?? []) as DifyFile[],
    },
  };
}

/**
 * The turn's message: the app's variables before the query, as AG-UI's `context` is
 * given (so the model reads them as the app's setting, not as the user's words), on one
 * line as JSON so `GET /messages` can give them back apart ({@linkcode splitDifyTurnContent});
 * the query alone when there are none.
 *
 * @param query the user's message
 * @param inputs the validated variables
 * @returns the content of the turn
 */
export function difyTurnContent(query: string, inputs: Record<string, string | number>): string {
  return Object.keys(inputs).length > 0
    ? `${INPUTS_LABEL}${JSON.stringify(inputs)}\n\n${query}`
    : query;
}

const INPUTS_LABEL = "Inputs: ";

/**
 * A turn's message taken apart again: the inputs {@linkcode difyTurnContent} put before the
 * query, and the query. A message without that first line is all query.
 *
 * @param content the user message of a turn
 * @returns its inputs (none when absent) and its query
 */
export function splitDifyTurnContent(
  content: string,
): { inputs: Record<string, string | number>; query: string } {
  const end = content.indexOf("\n\n");
  if (!content.startsWith(INPUTS_LABEL) || end < 0) return { inputs: {}, query: content };
  let parsed: unknown;
  try {
    parsed = JSON.parse(content.slice(INPUTS_LABEL.length, end));
  } catch {
    return { inputs: {}, query: content };
  }
  const valid = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) &&
    Object.keys(parsed).length > 0 &&
    Object.values(parsed).every((v) => typeof v === "string" || typeof v === "number");
  if (!valid) return { inputs: {}, query: content };
  return { inputs: parsed as Record<string, string | number>, query: content.slice(end + 2) };
}
