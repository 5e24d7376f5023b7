/**
 * `createServer`'s options, validated: a bad option is a {@linkcode CreateServerOptionsError}
 * (code `invalid_create_server_options`) naming the option, thrown when the server is made,
 * never a surprise on the first request. Also the key check the options describe.
 *
 * @module
 */
import { z } from "zod";
import { DIFY_DEFAULT_PARAMETERS, type DifyParameters } from "./dify_parameters.ts";

/** Decides whether a presented key may pass (it may be async, e.g. a database lookup). */
export type ApiKeyCheck = (key: string) => boolean | Promise<boolean>;

/** What {@linkcode createServer} may be given. */
export interface CreateServerOptions {
  /**
   * The accepted keys (`Authorization: Bearer <key>` on every endpoint), or a function
   * deciding. Absent: no keys, so put the server behind your own auth if others reach it.
   */
  apiKeys?: string[] | ApiKeyCheck;
  /** Where the Dify-compatible API is served; default `/v1`. */
  difyPrefix?: string;
  /** Where AG-UI is served (also `<agUiPath>/:agent`); default `/ag-ui`. */
  agUiPath?: string;
  /** What `GET <difyPrefix>/parameters` answers, over Dify's defaults (field by field). */
  parameters?: Partial<DifyParameters>;
}

/** The options after validation, with the defaults filled in. */
export interface ResolvedServerOptions {
  /** The key check, or null when no key is asked. */
  checkKey: ApiKeyCheck | null;
  /** The Dify prefix. */
  difyPrefix: string;
  /** The AG-UI path. */
  agUiPath: string;
  /** The `/parameters` answer. */
  parameters: DifyParameters;
}

/** Thrown by `createServer` for options it cannot serve with. */
export class CreateServerOptionsError extends Error {
  /** The stable code. */
  readonly code = "invalid_create_server_options";

  /**
   * Makes the error.
   *
   * @param message what is wrong, naming the option
   */
  constructor(message: string) {
    super(message);
    this.name = "CreateServerOptionsError";
  }
}

// A route prefix: one or more `/segment`s of URL-safe characters, no trailing slash, so
// Hono mounts it exactly where the option says.
const Path = z.string().regex(/^(\/[A-Za-z0-9._~-]+)+$/, {
  error: "must be like /segment or /a/b (no trailing slash, URL-safe characters)",
});
const Enabled = z.looseObject({ enabled: z.boolean() });
const Parameters = z.strictObject({
  opening_statement: z.string(),
  suggested_questions: z.array(z.string()),
  suggested_questions_after_answer: Enabled,
  speech_to_text: Enabled,
  retriever_resource: Enabled,
  annotation_reply: Enabled,
  user_input_form: z.array(z.record(z.string(), z.unknown())),
  file_upload: z.record(z.string(), z.unknown()),
  system_parameters: z.record(z.string(), z.unknown()),
}).partial();
const Options = z.strictObject({
  apiKeys: z.union([
    z.array(z.string().min(1, { error: "a key is empty" })).min(1, {
      error: "is empty, so no request could pass (leave it out for no keys)",
    }),
    z.custom<ApiKeyCheck>((value) => typeof value === "function", {
      error: "must be a list of keys or a function (key) => boolean",
    }),
  ]).optional(),
  difyPrefix: Path.optional(),
  agUiPath: Path.optional(),
  parameters: Parameters.optional(),
});

/**
 * Validates the options and fills in the defaults.
 *
 * @param options what the caller gave (anything: JavaScript callers are not type-checked)
 * @returns the resolved options
 * @throws {CreateServerOptionsError} naming the first bad option
 */
export function resolveServerOptions(options: unknown): ResolvedServerOptions {
  const parsed = Options.safeParse(options ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.map(String).join(".") || "options";
    throw new CreateServerOptionsError(`createServer: ${where}: ${issue.message}`);
  }
  const value = parsed.data;
  const difyPrefix = value.difyPrefix ?? "/v1";
  const agUiPath = value.agUiPath ?? "/ag-ui";
  if (difyPrefix === agUiPath) {
    throw new CreateServerOptionsError(
      `createServer: difyPrefix and agUiPath are both ${difyPrefix}`,
    );
  }
  return {
    checkKey: keyCheck(value.apiKeys),
    difyPrefix,
    agUiPath,
    parameters: { ...DIFY_DEFAULT_PARAMETERS, ...value.parameters } as DifyParameters,
  };
}

function keyCheck(apiKeys: string[] | ApiKeyCheck | undefined): ApiKeyCheck | null {
  if (apiKeys === undefined) return null;
  if (typeof apiKeys === "function") return apiKeys;
  // Compared as SHA-256 digests in constant time, so the answer's timing says nothing
  // about how much of a key was right.
  const digests = Promise.all(apiKeys.map(sha256));
  return async (key) => {
    const presented = await sha256(key);
    let found = false;
    for (const digest of await digests) found = equalBytes(digest, presented) || found;
    return found;
  };
}

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < Math.min(a.length, b.length); i++) difference |= a[i] ^ b[i];
  return difference === 0;
}
