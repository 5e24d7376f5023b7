/**
 * Agent profiles (issue 21, seed 003): a named, saved configuration a thread is bound to,
 * selecting the model, the permission preset, the tools, skills, MCP servers and
 * sub-agents of its Runs. Each selection follows seed 003's rule: absent = everything the
 * user may use, `[]` = none, a list = only those (sub-agents: absent or `[]` = all).
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";
import { Identifier } from "../ids.ts";
import { PermissionPreset } from "./permission_rule.ts";
import { ProviderId } from "./provider.ts";
import { ReasoningEffort } from "../enums.ts";
import { SkillName } from "./skill.ts";
import { McpServerName } from "./mcp.ts";
import {
  AGENT_DESCRIPTION_MAX_CHARS,
  AGENT_INSTRUCTIONS_MAX_CHARS,
  AGENT_NAME_MAX_CHARS,
  AGENT_SELECTION_MAX_COUNT,
} from "../../limits.ts";

export const AgentId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, {
  error: "an agent id is 1–64 of a-z, 0-9, '_' and '-', starting with a letter or digit",
}).register(docs, { description: "An agent profile's id: `^[a-z0-9][a-z0-9_-]{0,63}$`." });

export const AgentModel = z.strictObject({
  providerId: ProviderId,
  modelId: z.string().min(1).max(256),
  reasoningEffort: ReasoningEffort.optional(),
}).register(docs, { description: "The model an agent profile's Runs use by default." });

export const AgentMemory = z.strictObject({
  /** Whether long-term memories are recalled into its Runs. */
  recall: z.boolean(),
  /** Whether `MEMORY.md` is offered to its Runs as reference material. */
  memoryFile: z.boolean(),
}).register(docs, { description: "Which memory an agent profile's Runs use." });

/** Each name once: a list is a set, and a duplicate is a mistake worth naming. */
function uniqueList<T extends z.ZodType<string>>(item: T) {
  return z.array(item).max(AGENT_SELECTION_MAX_COUNT).superRefine((names, ctx) => {
    names.forEach((name, index) => {
      if (names.indexOf(name) !== index) {
        ctx.addIssue({ code: "custom", path: [index], message: `${name} is listed twice` });
      }
    });
  });
}

export const AgentProfile = z.strictObject({
  id: AgentId,
  name: z.string().trim().min(1).max(AGENT_NAME_MAX_CHARS).regex(/^[^\r\n]*$/, {
    error: "a name is one line",
  }),
  description: z.string().max(AGENT_DESCRIPTION_MAX_CHARS).optional(),
  /** Absent: the request's model (the user's pick). */
  model: AgentModel.optional(),
  /**
   * The widest preset its Runs get: a turn's own choice (else config.yaml's default
   * preset) is lowered to it, never raised.
   */
  permission: PermissionPreset,
  /** Tool ids; absent = all, `[]` = none. */
  tools: uniqueList(Identifier).optional(),
  /** Skill names; absent = all enabled skills, `[]` = none. */
  skills: uniqueList(SkillName).optional(),
  /** MCP server names whose tools it gets; absent = all, `[]` = none. */
  mcpServers: uniqueList(McpServerName).optional(),
  /** Profiles its `subagent` tool may run; absent or `[]` = all (seed 003). */
  subagents: uniqueList(AgentId).optional(),
  /** Appended to the system prompt of its Runs. */
  instructions: z.string().max(AGENT_INSTRUCTIONS_MAX_CHARS).optional(),
  memory: AgentMemory,
}).register(docs, {
  description: "An agent profile (seed 003): model, permission preset, instructions and " +
    "the tools, skills, MCP servers and sub-agents its Runs may use (absent = all the " +
    "user may use, `[]` = none, a list = those; sub-agents: absent or `[]` = all).",
});

export const AgentInfo = z.looseObject({
  profile: AgentProfile,
  /** Whether the profile is one of the runtime's own (`build`, `plan`, `explore`). */
  builtIn: z.boolean(),
  /** Whether config.yaml holds a profile of this id (for a built-in: an edited copy). */
  saved: z.boolean(),
  /** Whether it is the profile new threads are bound to. */
  isDefault: z.boolean(),
}).register(docs, { description: "An agent profile as `agent.list` shows it." });

export const FrozenAgent = z.strictObject({
  /** Where the profile came from at submission: the runtime's own, or config.yaml. */
  source: z.enum(["builtin", "config"]),
  profile: AgentProfile,
}).register(docs, {
  description: "The agent profile a Run was frozen with: a later edit never changes it.",
});
