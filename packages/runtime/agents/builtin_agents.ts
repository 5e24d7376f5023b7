/**
 * The runtime's own agent profiles (issue 21): `build` (today's behaviour: every tool,
 * skill and server, any preset the turn asks for), `plan` (read-only tools, no processes,
 * answers with a plan) and `explore` (read-only; what the `subagent` tool runs unless told
 * otherwise). They are code, not config: a profile saved in config.yaml with one of these
 * ids replaces it (the user's edited copy), and removing that copy brings it back.
 *
 * @module
 */
import type { AgentProfile } from "@daedalus/protocol";

/** The id of the profile threads use when nothing else is chosen. */
export const BUILD_AGENT_ID = "build";
/** The id of the planning profile. */
export const PLAN_AGENT_ID = "plan";
/** The id of the read-only profile sub-agents use by default. */
export const EXPLORE_AGENT_ID = "explore";

/**
 * The tools that only read: files, history, other threads, memory. No `write`/`edit`, no
 * `process_*`, no thread changes and no `subagent` (the `read_only` preset refuses
 * `session` tools anyway).
 */
export const READ_ONLY_TOOLS: readonly string[] = Object.freeze([
  "read",
  "glob",
  "grep",
  "list",
  "history_read",
  "thread_list",
  "thread_read",
  "memory",
]);

const PLAN_INSTRUCTIONS = [
  "You are in Plan mode: you can read files and search, but you cannot change files or run",
  "commands, and asking for that is refused. Investigate what is needed, then answer with a",
  "plan: the steps, the files each step changes and why, the risks and open questions.",
  "Do not claim to have made any change.",
].join(" ");

const EXPLORE_INSTRUCTIONS = [
  "You are an Explore agent: you can read files and search, but not change anything.",
  "Find what was asked for and answer with the facts and the paths (and lines) they come",
  "from, briefly.",
].join(" ");

/** The built-in profiles, in the order they are listed. */
export const BUILTIN_AGENTS: readonly AgentProfile[] = Object.freeze([
  Object.freeze({
    id: BUILD_AGENT_ID,
    name: "Build",
    description: "Works on the task with every tool, skill and MCP server you allow.",
    permission: "full_access",
    memory: { recall: true, memoryFile: true },
  }),
  Object.freeze({
    id: PLAN_AGENT_ID,
    name: "Plan",
    description: "Reads and searches, changes nothing, and answers with a plan.",
    permission: "read_only",
    tools: [...READ_ONLY_TOOLS],
    mcpServers: [],
    instructions: PLAN_INSTRUCTIONS,
    memory: { recall: true, memoryFile: true },
  }),
  Object.freeze({
    id: EXPLORE_AGENT_ID,
    name: "Explore",
    description: "Reads and searches, changes nothing; sub-agents use it by default.",
    permission: "read_only",
    tools: [...READ_ONLY_TOOLS],
    mcpServers: [],
    instructions: EXPLORE_INSTRUCTIONS,
    memory: { recall: false, memoryFile: false },
  }),
] as AgentProfile[]);

/**
 * Whether `id` is one of the built-in profiles.
 *
 * @param id a profile id
 * @returns true for `build`, `plan` and `explore`
 */
export function isBuiltInAgent(id: string): boolean {
  return BUILTIN_AGENTS.some((profile) => profile.id === id);
}
