/**
 * What the fixed part of every model request weighs: the first request of a fresh
 * thread (bundled identity, no instruction files, no skills, one short user message,
 * every built-in tool) built by the same context builder and Chat Completions body
 * builder the loop uses, measured in bytes of the body's JSON.
 *
 * @module
 */
import type { Item } from "@daedalus/protocol";
import { buildContext } from "../context/context_builder.ts";
import { bundledIdentity } from "../context/identity.ts";
import { skillCatalogPrompt } from "../skills/prompt.ts";
import { buildChatCompletionsBody } from "../providers/openai/request.ts";
import { builtinToolManifest } from "./manifest.ts";

/** The bytes one tool adds to a request body. */
export interface ToolBytes {
  /** The tool id. */
  name: string;
  /** Its whole `tools[]` entry, as JSON. */
  bytes: number;
  /** Of which its description (the string's UTF-8 bytes). */
  descriptionBytes: number;
  /** Of which its parameter schema, as JSON. */
  parametersBytes: number;
}

/** The fixed part of a first request, in bytes of the body's JSON. */
export interface PromptSize {
  /** The system message (`{"role":"system","content":…}`). */
  systemBytes: number;
  /** Each tool's entry, sorted by name. */
  tools: ToolBytes[];
  /** The whole `tools` array (entries, commas and brackets). */
  toolsBytes: number;
  /** System message plus tools array: what every request carries before any history. */
  totalBytes: number;
}

const utf8 = new TextEncoder();
const bytesOf = (value: unknown) =>
  utf8.encode(typeof value === "string" ? value : JSON.stringify(value)).byteLength;

/**
 * Builds the first request of a fresh thread with all built-in tools and weighs it.
 *
 * @returns the system message's and each tool's bytes, and their total
 */
export function measureFirstRequest(): PromptSize {
  // A fresh thread: no instruction files, no skills, so the system text is the identity.
  const systemText = [bundledIdentity().text, skillCatalogPrompt([])].filter(Boolean).join(
    "\n\n",
  );
  const tools = builtinToolManifest().map(({ name, description, parameters }) => ({
    name,
    description,
    parameters,
  }));
  const context = buildContext({
    systemText,
    turnOrdinal: 1,
    currentItems: [firstUserMessage("Hello")],
    readHistoryPage: () => [],
    contextWindow: 128_000,
    tools,
  });
  const body = buildChatCompletionsBody({
    modelId: "model",
    messages: context.messages,
    tools,
    reasoningEffort: null,
  });
  const system = body.messages.find((message) => message.role === "system");
  const entries = (body.tools ?? []).map((entry) => ({
    name: entry.function.name,
    bytes: bytesOf(entry),
    descriptionBytes: bytesOf(entry.function.description),
    parametersBytes: bytesOf(entry.function.parameters),
  }));
  const systemBytes = system ? bytesOf(system) : 0;
  const toolsBytes = body.tools ? bytesOf(body.tools) : 0;
  return { systemBytes, tools: entries, toolsBytes, totalBytes: systemBytes + toolsBytes };
}

function firstUserMessage(content: string): Item {
  const id = "0".repeat(31) + "1";
  return {
    id: `item_${id}`,
    turnId: `turn_${id}`,
    runId: `run_${id}`,
    ordinal: 1,
    kind: "message",
    role: "user",
    status: "completed",
    content,
    data: {},
    createdAt: "2026-12-01T00:00:00.000Z",
    updatedAt: "2026-12-01T00:00:00.000Z",
  };
}
