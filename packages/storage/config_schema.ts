/**
 * The zod schema of `config.yaml` version 1, with the file's snake_case keys. Objects are
 * strict: an unknown key is an error, not something silently dropped on the next write.
 *
 * @module
 */
import { z } from "zod";
import {
  BUDGET_COST_USD_MAX,
  BUDGET_MODEL_CALLS_MAX,
  BUDGET_TOKENS_MAX,
  BUDGET_WALL_TIME_SECONDS_MAX,
  COMPACTION_THRESHOLD_MAX,
  COMPACTION_THRESHOLD_MIN,
  type HighRiskCommands,
  type PermissionPreset,
  type PermissionRule,
  PermissionSettings,
  REASONING_EFFORTS,
  type ReasoningEffort,
} from "@daedalus/protocol";
import {
  CONFIG_DISPLAY_NAME_MAX_CHARS,
  CONFIG_GATEWAY_PREFIX_MAX_CHARS,
  CONFIG_MODEL_ID_MAX_CHARS,
} from "./limits.ts";
import { fallbackIssues, type ModelFallbackConfig } from "./config_fallbacks.ts";
import { type McpConfig, type McpConfigInput, McpConfigSchema } from "./config_mcp_schema.ts";
import { type AgentsConfig, AgentsConfigSchema } from "./config_agents_schema.ts";

/** The config.yaml format version this build reads and writes. */
export const CONFIG_VERSION = 1;

const ReasoningEffortSchema = z.enum(REASONING_EFFORTS);

const CONTROL_CHARS = /\p{Cc}/u;
// JavaScript objects give this key a special meaning; zod records drop it silently.
const RESERVED_KEY = "__proto__";

const ProviderIdSchema = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, {
  error: "provider id must be 1-64 lowercase letters, digits, '_' or '-', " +
    "starting with a letter or digit",
});

const ModelIdSchema = z.string()
  .min(1, { error: "model id must not be empty" })
  .max(CONFIG_MODEL_ID_MAX_CHARS, {
    error: `model id must be at most ${CONFIG_MODEL_ID_MAX_CHARS} characters`,
  })
  .refine((id) => !CONTROL_CHARS.test(id) && id.trim() === id && id !== RESERVED_KEY, {
    error: "model id must not contain control characters or surrounding spaces",
  });

const SkillNameSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, {
  error: "skill name must be 1-64 lowercase letters, digits or '-', " +
    "starting with a letter or digit",
});

const DisplayNameSchema = z.string()
  .min(1, { error: "display_name must not be empty" })
  .max(CONFIG_DISPLAY_NAME_MAX_CHARS, {
    error: `display_name must be at most ${CONFIG_DISPLAY_NAME_MAX_CHARS} characters`,
  })
  .refine((name) => !CONTROL_CHARS.test(name), {
    error: "display_name must be one line without control characters",
  });

// RFC 9110 field-name token characters.
const HeaderNameSchema = z.string()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, { error: "header name must be an HTTP token" })
  .refine((name) => name !== RESERVED_KEY, { error: "header name is reserved" });

const HeaderValueSchema = z.string().refine((value) => !/[\r\n\0]/.test(value), {
  error: "header value must not contain line breaks or NUL",
});

const ApiKeySchema = z.string()
  .min(1, { error: "api_key must not be empty; omit the key instead" })
  .refine((key) => !CONTROL_CHARS.test(key), {
    error: "api_key must not contain control characters",
  });

/** A model's fallback: a configured, enabled model other than itself (config_fallbacks.ts). */
const ModelFallbackSchema = z.strictObject({
  provider_id: ProviderIdSchema,
  model_id: ModelIdSchema,
});

/** A model's price in US dollars per million tokens (cost budgets count with it). */
const ModelPriceSchema = z.strictObject({
  input_usd_per_mtok: z.number().min(0).max(10_000),
  output_usd_per_mtok: z.number().min(0).max(10_000),
});

/** One model of a provider, as stored under `providers.<id>.models.<model-id>`. */
export const ModelConfigSchema = z.strictObject({
  display_name: DisplayNameSchema.optional(),
  enabled: z.boolean().default(true),
  supports_tools: z.boolean().default(true),
  context_window: z.int().positive({ error: "context_window must be a positive integer" })
    .optional(),
  reasoning_efforts: z.array(ReasoningEffortSchema).optional(),
  reasoning_effort: ReasoningEffortSchema.optional(),
  fallback: ModelFallbackSchema.optional(),
  price: ModelPriceSchema.optional(),
}).superRefine((model, ctx) => {
  const efforts = model.reasoning_efforts;
  if (efforts === undefined) return;
  efforts.forEach((effort, index) => {
    if (efforts.indexOf(effort) === index) return;
    ctx.addIssue({
      code: "custom",
      path: ["reasoning_efforts", index],
      message: `reasoning effort ${effort} is listed twice`,
    });
  });
  if (model.reasoning_effort !== undefined && !efforts.includes(model.reasoning_effort)) {
    ctx.addIssue({
      code: "custom",
      path: ["reasoning_effort"],
      message: "reasoning_effort must be one of reasoning_efforts",
    });
  }
});

/** One OpenAI-compatible provider, as stored under `providers.<id>`. */
export const ProviderConfigSchema = z.strictObject({
  type: z.literal("openai_compatible"),
  preset: z.literal("deepseek").optional(),
  display_name: DisplayNameSchema.optional(),
  base_url: z.url({
    protocol: /^https?$/,
    error: (issue) => issue.input === undefined ? undefined : "base_url must be an http(s) URL",
  }),
  api_key: ApiKeySchema.optional(),
  headers: z.record(HeaderNameSchema, HeaderValueSchema).optional(),
  models: z.record(ModelIdSchema, ModelConfigSchema).default(() => ({})),
});

const SkillsConfigSchema = z.strictObject({
  disabled: z.array(SkillNameSchema).default(() => []).superRefine((names, ctx) => {
    names.forEach((name, index) => {
      if (names.indexOf(name) === index) return;
      ctx.addIssue({ code: "custom", path: [index], message: `skill ${name} is listed twice` });
    });
  }),
});

/**
 * The `auxiliary` section: the runtime's own model calls after a user's Run. A missing
 * key means on, so a file written before the section existed keeps them running.
 */
const AuxiliaryConfigSchema = z.strictObject({
  thread_titles: z.boolean().optional(),
  memory_refinement: z.boolean().optional(),
});

/**
 * The `budgets` section: the limits of every Run whose turn names none (each optional;
 * `turn.start`'s `budget` replaces the whole section for its Run).
 */
const BudgetsConfigSchema = z.strictObject({
  tokens: z.int().min(1).max(BUDGET_TOKENS_MAX).optional(),
  cost_usd: z.number().positive().max(BUDGET_COST_USD_MAX).optional(),
  model_calls: z.int().min(1).max(BUDGET_MODEL_CALLS_MAX).optional(),
  wall_time_seconds: z.int().min(1).max(BUDGET_WALL_TIME_SECONDS_MAX).optional(),
});

/**
 * The `compaction` section: the share of the window at which a Run compacts its context
 * (0.5–0.95) and whether it compacts at all. Absent keys: 0.9, on (as before it existed).
 */
export const CompactionConfigSchema = z.strictObject({
  threshold: z.number({ error: "threshold must be a number (a fraction of the window)" })
    .min(COMPACTION_THRESHOLD_MIN, {
      error: `threshold must be at least ${COMPACTION_THRESHOLD_MIN} (a fraction of the window)`,
    })
    .max(COMPACTION_THRESHOLD_MAX, {
      error: `threshold must be at most ${COMPACTION_THRESHOLD_MAX} (a fraction of the window)`,
    }).optional(),
  enabled: z.boolean({ error: "enabled must be true or false" }).optional(),
});

/**
 * The `permissions` section: the default preset of threads and rules checked after it.
 * Validated by the protocol's `PermissionSettings` (the schema the RPC and the PWA use),
 * its issues re-addressed under `permissions` so an error names the rule's index and field
 * (`permissions.rules[3].pattern`). Absent: the `ask` preset and no rules.
 */
export const PermissionsConfigSchema = z.custom<PermissionsConfig>().superRefine((value, ctx) => {
  const result = PermissionSettings.safeParse(value);
  if (result.success) return;
  for (const issue of result.error.issues) {
    if (issue.code === "unrecognized_keys") {
      // One "unknown key" per key, at the key, as zod reports them for the rest of the file.
      ctx.addIssue({
        code: "unrecognized_keys",
        keys: [...issue.keys ?? []],
        path: [...issue.path],
      });
    } else ctx.addIssue({ code: "custom", path: [...issue.path], message: issue.message });
  }
});

/**
 * The whole of `config.yaml` version 1.
 *
 * @example
 * ```ts
 * const config = DaedalusConfigSchema.parse({
 *   version: 1,
 *   providers: {
 *     local: {
 *       type: "openai_compatible",
 *       base_url: "http://127.0.0.1:11434/v1",
 *       models: { "qwen2.5:7b": { context_window: 32768 } },
 *     },
 *   },
 * });
 * config.providers.local.models["qwen2.5:7b"].enabled; // true
 * ```
 */
/** The first path segments the runtime serves itself: a gateway prefix must not shadow them. */
export const GATEWAY_RESERVED_SEGMENTS: readonly string[] = [
  "rpc",
  "ws",
  "upload",
  "attachments",
  "api",
  "health",
  "auth",
  "ag-ui",
  "assets",
];

/**
 * A mount path such as `/dify/v1`: one to eight segments of letters, digits, `_` or `-`
 * (no dots, so it never names one of the PWA's files), no trailing slash, and not starting
 * with a segment the runtime serves itself.
 */
const GatewayPrefixSchema = z.string()
  .max(CONFIG_GATEWAY_PREFIX_MAX_CHARS, {
    error: `dify_prefix must be at most ${CONFIG_GATEWAY_PREFIX_MAX_CHARS} characters`,
  })
  .regex(/^(\/[A-Za-z0-9_-]+){1,8}$/, {
    error: "dify_prefix must be a path like /dify/v1: segments of letters, digits, '_' or " +
      "'-', without a trailing slash",
  })
  .refine((prefix) => !GATEWAY_RESERVED_SEGMENTS.includes(prefix.split("/")[1]!.toLowerCase()), {
    error: `dify_prefix must not start with one of the runtime's own paths (${
      GATEWAY_RESERVED_SEGMENTS.map((s) => `/${s}`).join(", ")
    })`,
  });

/** The `gateway` section: where the Dify-compatible API is served (read at start). */
export const GatewayConfigSchema = z.strictObject({
  dify_prefix: GatewayPrefixSchema.optional(),
});

export const DaedalusConfigSchema = z.strictObject({
  version: z.literal(CONFIG_VERSION, { error: `version must be ${CONFIG_VERSION}` }),
  providers: z.record(ProviderIdSchema, ProviderConfigSchema).default(() => ({})),
  skills: SkillsConfigSchema.default(() => ({ disabled: [] })),
  auxiliary: AuxiliaryConfigSchema.optional(),
  permissions: PermissionsConfigSchema.optional(),
  budgets: BudgetsConfigSchema.optional(),
  compaction: CompactionConfigSchema.optional(),
  mcp: McpConfigSchema.optional(),
  gateway: GatewayConfigSchema.optional(),
  agents: AgentsConfigSchema.optional(),
}).superRefine((config, ctx) => {
  for (const issue of fallbackIssues(config)) {
    ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
  }
});

// The types below are written out (not `z.output<…>`) so the package's public types do not
// depend on zod's; the assertions at the end keep them equal to what the schemas produce.

/** A validated model entry (`providers.<id>.models.<model-id>`), defaults filled in. */
export interface ModelConfig {
  /** The name shown in clients. */
  display_name?: string;
  /** Whether clients may pick it (default true). */
  enabled: boolean;
  /** Whether it is sent tools (default true). */
  supports_tools: boolean;
  /** Its context window in tokens. */
  context_window?: number;
  /** The reasoning efforts it accepts, each once. */
  reasoning_efforts?: ReasoningEffort[];
  /** The effort used by default; one of `reasoning_efforts`. */
  reasoning_effort?: ReasoningEffort;
  /** The model a Run continues on when this one fails with a retryable reason. */
  fallback?: ModelFallbackConfig;
  /** Its price, for cost budgets (absent: a Run's cost is not counted). */
  price?: ModelPriceConfig;
}

/** A model entry as accepted for writing: defaults may be omitted. */
export type ModelConfigInput =
  & Omit<ModelConfig, "enabled" | "supports_tools">
  & Partial<Pick<ModelConfig, "enabled" | "supports_tools">>;

/** A validated provider entry (`providers.<id>`), defaults filled in. */
export interface ProviderConfig {
  /** The wire protocol; only OpenAI-compatible for now. */
  type: "openai_compatible";
  /** A known provider whose quirks apply. */
  preset?: "deepseek";
  /** The name shown in clients. */
  display_name?: string;
  /** The API's base URL (http or https). */
  base_url: string;
  /** The API key, when the provider needs one. */
  api_key?: string;
  /** Extra HTTP headers sent with every request. */
  headers?: Record<string, string>;
  /** Its models by id (default none). */
  models: Record<string, ModelConfig>;
}

/** A provider entry as accepted for writing: defaults may be omitted. */
export type ProviderConfigInput = Omit<ProviderConfig, "models"> & {
  /** Its models by id. */
  models?: Record<string, ModelConfigInput>;
};

/** The `skills` section: which skills are switched off. */
export interface SkillsConfig {
  /** Names of disabled skills, each once (default none). */
  disabled: string[];
}

/** The `auxiliary` section: which of the runtime's own model calls run (absent: on). */
export interface AuxiliaryConfig {
  /** Whether threads get an automatic title after their first Run. */
  thread_titles?: boolean;
  /** Whether memories are refined in the background after each Run. */
  memory_refinement?: boolean;
}

/**
 * The `permissions` section (the protocol's `PermissionSettings`): a preset and rules.
 * Absent keys mean the `ask` preset and no rules of the config's own.
 */
export interface PermissionsConfig {
  /** The preset new threads start from (default `ask`). */
  preset?: PermissionPreset;
  /** Rules checked after the preset's, in order; the last match wins. */
  rules?: PermissionRule[];
  /** What a high-risk `process_start` gets (default `ask`: the user's approval). */
  highRiskCommands?: HighRiskCommands;
}

/** A model's price in US dollars per million tokens. */
export interface ModelPriceConfig {
  /** Per million input tokens. */
  input_usd_per_mtok: number;
  /** Per million output tokens. */
  output_usd_per_mtok: number;
}

/** The `budgets` section: every Run's limits unless its turn names its own. */
export interface BudgetsConfig {
  /** Tokens (input + output) a Run may use. */
  tokens?: number;
  /** US dollars a Run may cost (counted only for models with a `price`). */
  cost_usd?: number;
  /** Model calls a Run may make. */
  model_calls?: number;
  /** Seconds a Run may run (time waiting for the user does not count). */
  wall_time_seconds?: number;
}

/** The `compaction` section (absent keys: threshold 0.9, enabled). */
export interface CompactionConfig {
  /** The share of the model's window at which a Run compacts (0.5–0.95). */
  threshold?: number;
  /** Whether Runs compact at all; off, a Run that no longer fits fails. */
  enabled?: boolean;
}

/** A validated config with defaults filled in. */
export interface DaedalusConfig {
  /** The format version, {@linkcode CONFIG_VERSION}. */
  version: typeof CONFIG_VERSION;
  /** The providers by id (default none). */
  providers: Record<string, ProviderConfig>;
  /** The skills section. */
  skills: SkillsConfig;
  /** The auxiliary calls section (absent: every call on). */
  auxiliary?: AuxiliaryConfig;
  /** The permissions section (absent: the `ask` preset, no rules). */
  permissions?: PermissionsConfig;
  /** The budgets section (absent: no limits). */
  budgets?: BudgetsConfig;
  /** The compaction section (absent: 0.9 of the window, on). */
  compaction?: CompactionConfig;
  /** The MCP servers (absent: none). */
  mcp?: McpConfig;
  /** The gateway section (absent: the Dify API at `/dify/v1`). */
  gateway?: GatewayConfig;
  /** The agent profiles (absent: only the built-ins, `build` the default). */
  agents?: AgentsConfig;
}

/** A config as accepted for writing: defaults may be omitted. */
export interface DaedalusConfigInput {
  /** The format version, {@linkcode CONFIG_VERSION}. */
  version: typeof CONFIG_VERSION;
  /** The providers by id. */
  providers?: Record<string, ProviderConfigInput>;
  /** The skills section. */
  skills?: Partial<SkillsConfig>;
  /** The auxiliary calls section. */
  auxiliary?: AuxiliaryConfig;
  /** The permissions section. */
  permissions?: PermissionsConfig;
  /** The budgets section. */
  budgets?: BudgetsConfig;
  /** The compaction section. */
  compaction?: CompactionConfig;
  /** The MCP servers. */
  mcp?: McpConfigInput;
  /** The gateway section. */
  gateway?: GatewayConfig;
  /** The agent profiles. */
  agents?: AgentsConfig;
}

/** The `gateway` section (absent keys: the defaults). */
export interface GatewayConfig {
  /** Where the Dify-compatible API is mounted (default `/dify/v1`). */
  dify_prefix?: string;
}

// Compile-time guards: each written-out type equals the schema's own.
type Same<A, B> = [A] extends [B] ? [B] extends [A] ? true : false : false;
const sameTypes: [
  Same<DaedalusConfig, z.output<typeof DaedalusConfigSchema>>,
  Same<DaedalusConfigInput, z.input<typeof DaedalusConfigSchema>>,
  Same<ProviderConfig, z.output<typeof ProviderConfigSchema>>,
  Same<ModelConfig, z.output<typeof ModelConfigSchema>>,
  Same<AuxiliaryConfig, z.output<typeof AuxiliaryConfigSchema>>,
  Same<CompactionConfig, z.output<typeof CompactionConfigSchema>>,
  Same<GatewayConfig, z.output<typeof GatewayConfigSchema>>,
] = [true, true, true, true, true, true, true];
void sameTypes;
