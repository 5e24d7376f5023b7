/**
 * The RunConfig: what `turn.start` freezes for a Run so that a later change to the
 * config, the tools or the skills folder cannot alter a Run already submitted.
 *
 * Its large immutable parts (the tool schema set, the identity, the skills catalog)
 * are content-addressed: the stored and published {@linkcode RunConfigRecord} names
 * each by the SHA-256 of its JSON text, and a part's content travels in the journal
 * once, with the first Run that uses it ({@linkcode RunConfigPart}). The resolved
 * {@linkcode RunConfig} is the record with the parts' contents filled in.
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";
import { ModelPrice, RunBudget } from "./budget.ts";
import { RunId } from "../ids.ts";
import { ExecutionPolicy, ReasoningEffort } from "../enums.ts";
import { ProviderId } from "./provider.ts";
import { SkillName } from "./skill.ts";
import { FrozenCompaction } from "./compaction.ts";
import { FrozenAgent } from "./agent.ts";
import {
  CLIENT_TOOL_DESCRIPTION_MAX_CHARS,
  CLIENT_TOOL_PARAMETERS_MAX_CHARS,
  CLIENT_TOOLS_MAX_COUNT,
} from "../../limits.ts";

export const ContentHash = z.string().regex(/^sha256:[0-9a-f]{64}$/, {
  error: "a content hash is `sha256:` and 64 lowercase hex digits",
}).register(docs, {
  description: "A SHA-256 content address: `sha256:<64 hex digits>` of the content's JSON text.",
});

export const RunConfigPartKind = z.enum(["tool_schemas", "identity", "skills"]).register(docs, {
  description: "Which large, immutable part of a RunConfig a content-addressed part holds.",
});

export const RunToolSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string(),
  /** JSON Schema of the tool's arguments. */
  parameters: z.record(z.string(), z.unknown()),
  /** Whether it changes anything (mutating tools run exclusively). */
  mutating: z.boolean(),
}).register(docs, { description: "One tool as frozen into a RunConfig and offered to the model." });

export const ClientTool = z.strictObject({
  /** As the model calls it: OpenAI's function-name rule. */
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, {
    error: "a client tool's name is 1-64 letters, digits, _ or -",
  }),
  description: z.string().max(CLIENT_TOOL_DESCRIPTION_MAX_CHARS),
  /** JSON Schema of the tool's arguments. */
  parameters: z.record(z.string(), z.unknown()).refine(
    (schema) => JSON.stringify(schema).length <= CLIENT_TOOL_PARAMETERS_MAX_CHARS,
    {
      error:
        `a client tool's parameters are at most ${CLIENT_TOOL_PARAMETERS_MAX_CHARS} characters of JSON`,
    },
  ),
}).register(docs, {
  description: "A tool the caller runs itself (an AG-UI front end's): the model may call it, " +
    "the Run then waits for the caller's result (`run.submit_tool_result`).",
});

export const RunIdentity = z.strictObject({
  id: z.string().min(1),
  /** Bumped whenever the text changes meaning. */
  version: z.int().min(1),
  source: z.string().min(1),
  /** The prompt text. */
  text: z.string(),
  /** The SHA-256 of `text` (recorded in each StepInput's audit). */
  hash: ContentHash,
}).register(docs, { description: "The agent identity frozen into a RunConfig." });

export const RunSkill = z.strictObject({
  name: SkillName,
  description: z.string().max(1024),
  /** Absolute canonical path of its SKILL.md. */
  location: z.string().min(1),
}).register(docs, { description: "An enabled skill as frozen into a RunConfig." });

export const RunConfigPartRefs = z.strictObject({
  toolSchemas: ContentHash,
  identity: ContentHash,
  skills: ContentHash,
}).register(docs, { description: "The content hash of each part a RunConfig refers to." });

const recordShape = {
  providerId: ProviderId,
  modelId: z.string().min(1),
  /** The model's context window in tokens, as known at submission. */
  contextWindow: z.int().min(1),
  supportsTools: z.boolean(),
  executionPolicy: ExecutionPolicy,
  /** Null means "auto": no effort is sent. */
  reasoningEffort: ReasoningEffort.nullable(),
  /** How deep a sub-agent Run is nested (absent for a user's own Run). */
  subagentDepth: z.int().min(1).optional(),
  /** The Run that delegated this one (sub-agent Runs only). */
  parentRunId: RunId.optional(),
  /** The Run this one continues (`run.resume`): its items are this Run's context. */
  resumedFromRunId: RunId.optional(),
  /** The Run's budget as submitted (the turn's, else config.yaml's); absent: no limits. */
  budget: RunBudget.optional(),
  /** The model's price at submission, for a cost budget; absent when not configured. */
  price: ModelPrice.optional(),
  /**
   * The only tools the Run may call, by id (`turn.start` `tools`, e.g. a gateway key's);
   * absent: every tool of the runtime. Sub-agent Runs inherit it.
   */
  allowedTools: z.array(z.string().min(1)).optional(),
  /** Tools the caller runs (AG-UI's client-side tools); a call to one makes the Run wait. */
  clientTools: z.array(ClientTool).max(CLIENT_TOOLS_MAX_COUNT).optional(),
  /** When the Run compacts its context (absent on Runs frozen before it existed: 0.9, on). */
  compaction: FrozenCompaction.optional(),
  /** The agent profile the Run was prepared from (absent on Runs frozen before profiles). */
  agent: FrozenAgent.optional(),
  parts: RunConfigPartRefs,
};

export const RunConfigRecord = z.strictObject(recordShape).register(docs, {
  description:
    "A Run's frozen config as stored and published: its settings and the content hash of " +
    "each large part (tool schemas, identity, skills).",
});

export const RunConfigPart = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("tool_schemas"),
    hash: ContentHash,
    content: z.array(RunToolSchema),
  }),
  z.strictObject({ kind: z.literal("identity"), hash: ContentHash, content: RunIdentity }),
  z.strictObject({ kind: z.literal("skills"), hash: ContentHash, content: z.array(RunSkill) }),
]).register(docs, {
  description: "A content-addressed RunConfig part: `hash` is the SHA-256 of `content`'s " +
    "JSON text. Journaled once, with the first Run that refers to it.",
});

export const RunConfig = z.strictObject({
  ...recordShape,
  /** The tools offered to the model (empty when the model has no tool support). */
  tools: z.array(RunToolSchema),
  identity: RunIdentity,
  skills: z.array(RunSkill),
}).register(docs, {
  description: "A Run's frozen config resolved: the record with each part's content.",
});
