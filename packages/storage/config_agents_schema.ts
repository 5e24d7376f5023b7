/**
 * The `agents` section of config.yaml (issue 21): the user's agent profiles, the one new
 * threads are bound to, and the widest permission preset a profile may have.
 *
 * ```yaml
 * agents:
 *   default_agent_id: reviewer
 *   default_model: { provider_id: deepseek, model_id: deepseek-v4-flash }
 *   max_permission: workspace_write
 *   profiles:
 *     - id: reviewer
 *       name: Reviewer
 *       permission: read_only
 *       tools: [read, grep]
 *       memory: { recall: true, memoryFile: false }
 * ```
 *
 * Each profile is the protocol's `AgentProfile` (camelCase, as the RPC and the PWA send
 * it), like the `permissions` section is the protocol's `PermissionSettings`: one schema
 * for the file and the wire. Whether a profile's tools, skills and servers exist is
 * checked by `agent.save` (the runtime knows them), not here: a server removed later
 * must not make the whole file unreadable. Likewise `default_model` (the model of Runs whose
 * request and profile name none) is checked against the provider registry by
 * `settings.update`, so a provider removed later leaves the file readable.
 *
 * @module
 */
import { z } from "zod";
import {
  AGENT_PROFILES_MAX_COUNT,
  AgentId,
  AgentProfile,
  type AgentProfile as AgentProfileType,
  ModelRef,
  PERMISSION_PRESETS,
  type PermissionPreset,
} from "@daedalus/protocol";

/** One profile, validated by the protocol's schema, its issues under the profile's path. */
const ProfileSchema = z.custom<AgentProfileType>().superRefine((value, ctx) => {
  const result = AgentProfile.safeParse(value);
  if (result.success) return;
  for (const issue of result.error.issues) {
    if (issue.code === "unrecognized_keys") {
      ctx.addIssue({
        code: "unrecognized_keys",
        keys: [...issue.keys ?? []],
        path: [...issue.path],
      });
    } else ctx.addIssue({ code: "custom", path: [...issue.path], message: issue.message });
  }
});

const AgentIdSchema = z.custom<string>().superRefine((value, ctx) => {
  const result = AgentId.safeParse(value);
  if (!result.success) {
    ctx.addIssue({ code: "custom", message: result.error.issues[0]?.message ?? "bad agent id" });
  }
});

/**
 * `default_model`: snake_case like the section's other keys (and a model's `fallback`),
 * its values checked by the protocol's `ModelRef`, the shape the RPC sends.
 */
const DefaultModelSchema = z.strictObject({
  provider_id: z.string(),
  model_id: z.string(),
}).superRefine((value, ctx) => {
  const result = ModelRef.safeParse({ providerId: value.provider_id, modelId: value.model_id });
  if (result.success) return;
  for (const issue of result.error.issues) {
    const key = issue.path[0] === "providerId" ? "provider_id" : "model_id";
    ctx.addIssue({ code: "custom", path: [key], message: issue.message });
  }
});

/** The `agents` section; every key optional. */
export const AgentsConfigSchema = z.strictObject({
  default_agent_id: AgentIdSchema.optional(),
  default_model: DefaultModelSchema.optional(),
  max_permission: z.enum(PERMISSION_PRESETS, {
    error: `max_permission must be one of ${PERMISSION_PRESETS.join(", ")}`,
  }).optional(),
  profiles: z.array(ProfileSchema).max(AGENT_PROFILES_MAX_COUNT, {
    error: `at most ${AGENT_PROFILES_MAX_COUNT} agent profiles`,
  }).optional(),
}).superRefine((section, ctx) => {
  const ids = (section.profiles ?? []).map((profile) => profile?.id);
  ids.forEach((id, index) => {
    if (ids.indexOf(id) !== index) {
      ctx.addIssue({
        code: "custom",
        path: ["profiles", index, "id"],
        message: `agent ${id} is listed twice`,
      });
    }
  });
});

/** The `agents` section as stored (no defaults filled in: absent keys mean the built-ins'). */
export interface AgentsConfig {
  /** The profile new threads are bound to (absent: `build`). */
  default_agent_id?: string;
  /** The model of Runs whose request and profile name none (absent: such a Run is refused). */
  default_model?: DefaultModelConfig;
  /** The widest preset a profile may have and a Run may get (absent: `full_access`). */
  max_permission?: PermissionPreset;
  /** The saved profiles; one with a built-in's id replaces the built-in. */
  profiles?: AgentProfileType[];
}

/** `agents.default_model`: a provider's model, by id. */
export interface DefaultModelConfig {
  /** The provider. */
  provider_id: string;
  /** The model of that provider. */
  model_id: string;
}

// Keeps the written-out type equal to the schema's.
type Same<A, B> = [A] extends [B] ? [B] extends [A] ? true : false : false;
const same: Same<AgentsConfig, z.output<typeof AgentsConfigSchema>> = true;
void same;
