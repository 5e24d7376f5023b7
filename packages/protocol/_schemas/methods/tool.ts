/**
 * `tool.list`: the tools runs may call, as the runtime has them now (built-in, the
 * library user's, and the enabled MCP servers' offered tools), so clients can name them
 * (a gateway key's or a Run's `tools`, permission rules).
 *
 * @module
 */
import { z } from "zod";
import { method } from "./_define.ts";
import { ToolRisk } from "../enums.ts";
import { docs } from "../docs.ts";

export const ToolSummary = z.looseObject({
  /** The id runs call it by (an MCP tool's is `mcp__<server>__<tool>`-like: as offered). */
  id: z.string().min(1),
  /** What it does, in the words the model is given. */
  description: z.string(),
  /** Whether it changes anything (mutating tools run alone). */
  mutating: z.boolean(),
  /** Its risk class (what the permission rules and presets decide on). */
  risk: ToolRisk,
  /** The MCP server and tool name it comes from; null for the runtime's own tools. */
  mcp: z.strictObject({ server: z.string(), tool: z.string() }).nullable(),
}).register(docs, { description: "One tool the runtime offers (`tool.list`)." });

/** Methods of the `tool` namespace. */
export const toolMethods = {
  "tool.list": method({
    description: "Lists the tools runs may call now, in the order they are offered: the " +
      "runtime's own, then the enabled MCP servers' offered tools",
    params: z.strictObject({}),
    result: z.looseObject({ tools: z.array(ToolSummary) }),
  }),
};
