/**
 * The Settings › Gateway key form: what the user typed, checked as `gateway.key.create`
 * checks it (name length, a chosen model, an absolute workspace, tool ids and browser
 * origins within the protocol's limits), so a mistake is named beside its field before
 * anything is sent. The runtime still checks what only it knows (the model is configured,
 * the folder exists, the tools exist) and answers with a reason code.
 *
 * @module
 */
import {
  type ExecutionPolicy,
  GATEWAY_KEY_NAME_MAX_CHARS,
  GATEWAY_KEY_ORIGINS_MAX_COUNT,
  GATEWAY_KEY_TOOLS_MAX_COUNT,
  IDENTIFIER_MAX_CHARS,
  type McpServer,
  type ParamsOf,
  TOOL_IDS,
} from "@daedalus/client";
import type { MessageKey } from "../i18n/en.ts";

/** The permission presets, in the order Settings › Permissions lists them. */
export const KEY_PERMISSIONS: readonly ExecutionPolicy[] = [
  "read_only",
  "ask",
  "workspace_write",
  "full_access",
];

/** The form's fields as typed. */
export interface KeyForm {
  name: string;
  /** `<providerId>/<modelId>` of an enabled model, or "" before one is chosen. */
  model: string;
  permission: ExecutionPolicy;
  workspace: string;
  /** Every tool of the runtime (no `tools` in the profile), or only the chosen ones. */
  toolsMode: "all" | "only";
  /** The chosen tool ids when `toolsMode` is `only` (none: a key whose runs call no tool). */
  tools: readonly string[];
  /** One origin per line (commas also separate). */
  origins: string;
}

/** A field's problem: the message key and its values. */
export interface FieldProblem {
  key: MessageKey;
  values?: Record<string, string | number>;
}

/** The result of {@linkcode checkKeyForm}. */
export type KeyFormCheck =
  | { ok: true; params: ParamsOf<"gateway.key.create"> }
  | { ok: false; problems: Partial<Record<keyof KeyForm, FieldProblem>> };

/** A form with nothing typed; `ask` like a new key's most careful useful preset. */
export function emptyKeyForm(model = ""): KeyForm {
  return {
    name: "",
    model,
    permission: "ask",
    workspace: "",
    toolsMode: "all",
    tools: [],
    origins: "",
  };
}

/** `<providerId>/<modelId>`, the value of one model option. */
export function modelChoice(providerId: string, modelId: string): string {
  return `${providerId}/${modelId}`;
}

/**
 * The tools a key can be limited to: the built-in ones, then each MCP server's tools that
 * are offered to the model now (by the name runs call them), without repeats.
 *
 * @param servers `mcp.list`'s servers
 * @returns tool ids in that order
 */
export function toolChoices(servers: readonly McpServer[]): string[] {
  const mcp = servers.flatMap((server) =>
    server.tools.flatMap((tool) => (tool.enabled && tool.modelName ? [tool.modelName] : []))
  );
  return [...new Set([...TOOL_IDS, ...mcp])];
}

function splitList(text: string, separator: RegExp): string[] {
  return [...new Set(text.split(separator).map((part) => part.trim()).filter(Boolean))];
}

function isAbsolutePath(path: string): boolean {
  return path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\");
}

function isOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && url.host !== "";
  } catch {
    return false;
  }
}

/**
 * Checks the form and builds the `gateway.key.create` params.
 *
 * @param form what was typed
 * @returns the params, or one problem per field that is wrong
 */
export function checkKeyForm(form: KeyForm): KeyFormCheck {
  const problems: Partial<Record<keyof KeyForm, FieldProblem>> = {};
  const name = form.name.trim();
  if (name.length < 1 || name.length > GATEWAY_KEY_NAME_MAX_CHARS) {
    problems.name = { key: "gateway.form.error.name", values: { max: GATEWAY_KEY_NAME_MAX_CHARS } };
  }
  const slash = form.model.indexOf("/");
  const providerId = slash > 0 ? form.model.slice(0, slash) : "";
  const modelId = slash > 0 ? form.model.slice(slash + 1) : "";
  if (providerId === "" || modelId === "") problems.model = { key: "gateway.form.error.model" };
  const workspace = form.workspace.trim();
  if (workspace !== "" && !isAbsolutePath(workspace)) {
    problems.workspace = { key: "gateway.form.error.workspace" };
  }
  const tools = form.toolsMode === "only" ? [...new Set(form.tools)] : null;
  if (
    tools !== null &&
    (
      tools.length > GATEWAY_KEY_TOOLS_MAX_COUNT ||
      tools.some((tool) => tool.length < 1 || tool.length > IDENTIFIER_MAX_CHARS)
    )
  ) {
    problems.tools = {
      key: "gateway.form.error.tools",
      values: { max: GATEWAY_KEY_TOOLS_MAX_COUNT },
    };
  }
  const origins = splitList(form.origins, /[\s,]+/);
  if (origins.length > GATEWAY_KEY_ORIGINS_MAX_COUNT || !origins.every(isOrigin)) {
    problems.origins = {
      key: "gateway.form.error.origins",
      values: { max: GATEWAY_KEY_ORIGINS_MAX_COUNT },
    };
  }
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  return {
    ok: true,
    params: {
      name,
      profile: {
        providerId,
        modelId,
        permission: form.permission,
        ...(workspace !== "" ? { workspace } : {}),
        ...(tools !== null ? { tools } : {}),
        ...(origins.length > 0 ? { allowedOrigins: origins } : {}),
      },
    },
  };
}
