import assert from "node:assert/strict";
import { join } from "node:path";
import { RunConfig } from "@daedalus/protocol";
import { contentHash } from "@daedalus/storage";
import { z } from "zod";
import { defineTool, type ToolDefinition } from "@daedalus/tools";
import type { ResolvedModel } from "../providers/registry.ts";
import { RunConfigFreezer } from "./run_config_freezer.ts";

const MODEL: ResolvedModel = {
  id: "m",
  displayName: "M",
  contextWindow: 65_536,
  supportsTools: true,
  reasoningEfforts: ["low", "high"],
  reasoningEffort: "low",
  enabled: true,
  fallback: null,
};

function tool(name: string): ToolDefinition<unknown> {
  return defineTool({
    id: name,
    description: `The ${name} tool`,
    params: z.object({}),
    mutating: false,
    risk: "read",
    run: () => Promise.resolve({ content: name }),
  }) as ToolDefinition<unknown>;
}

async function withFreezer(fn: (freezer: RunConfigFreezer, skills: string) => Promise<void>) {
  const home = await Deno.makeTempDir({ prefix: "daedalus-freezer-" });
  try {
    const skills = join(home, "skills");
    await Deno.mkdir(skills);
    await fn(new RunConfigFreezer(skills, join(home, "config.yaml")), skills);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

const input = { providerId: "p", modelId: "m", model: MODEL };

Deno.test("a warm freeze reuses every part and its hash; each part hashes its JSON", async () => {
  await withFreezer(async (freezer) => {
    const tools = new Map([["read", tool("read")]]);
    const first = await freezer.freeze(input, tools);
    const second = await freezer.freeze(input, tools);
    assert.ok(RunConfig.safeParse(first).success, "the frozen config fits the protocol");
    assert.equal(second.tools, first.tools, "the tool schemas were not rebuilt");
    assert.equal(second.identity, first.identity, "the identity was not rebuilt");
    assert.equal(second.skills, first.skills, "unchanged skills keep their part");
    assert.deepEqual(second.parts, first.parts);
    assert.equal(first.parts.toolSchemas, contentHash(JSON.stringify(first.tools)));
    assert.equal(first.parts.identity, contentHash(JSON.stringify(first.identity)));
    assert.equal(first.parts.skills, contentHash("[]"));
    assert.deepEqual(
      [first.reasoningEffort, first.executionPolicy, first.contextWindow],
      ["low", "ask", 65_536],
      "the model's defaults apply when the request names none",
    );
  });
});

Deno.test("another tool set, a new skill or a model without tools gives another part", async () => {
  await withFreezer(async (freezer, skills) => {
    const first = await freezer.freeze(input, new Map([["read", tool("read")]]));
    const more = await freezer.freeze(input, new Map([["read", tool("read")], ["ls", tool("ls")]]));
    assert.deepEqual(more.tools.map((t) => t.name), ["read", "ls"]);
    assert.notEqual(more.parts.toolSchemas, first.parts.toolSchemas);

    await Deno.mkdir(join(skills, "notes"));
    await Deno.writeTextFile(
      join(skills, "notes", "SKILL.md"),
      "---\nname: notes\ndescription: Take notes\n---\n",
    );
    const skilled = await freezer.freeze(input, new Map());
    assert.deepEqual(skilled.skills.map((s) => s.name), ["notes"]);
    assert.equal(skilled.parts.skills, contentHash(JSON.stringify(skilled.skills)));

    const bare = await freezer.freeze(
      { ...input, model: { ...MODEL, supportsTools: false }, reasoningEffort: null },
      new Map([["read", tool("read")]]),
    );
    assert.deepEqual(bare.tools, [], "no tools are frozen for a model without tool support");
    assert.equal(bare.parts.toolSchemas, contentHash("[]"));
    assert.equal(bare.reasoningEffort, null, "null asks for auto, not the model's default");
  });
});

Deno.test("a Run limited to some tools freezes only those, in the runtime's order", async () => {
  await withFreezer(async (freezer) => {
    const tools = new Map([["read", tool("read")], ["ls", tool("ls")], ["grep", tool("grep")]]);
    const all = await freezer.freeze(input, tools);
    const limited = await freezer.freeze({ ...input, allowedTools: ["grep", "read"] }, tools);
    assert.deepEqual(limited.tools.map((t) => t.name), ["read", "grep"]);
    assert.deepEqual(limited.allowedTools, ["grep", "read"], "the limit is recorded");
    assert.equal(limited.parts.toolSchemas, contentHash(JSON.stringify(limited.tools)));
    assert.ok(RunConfig.safeParse(limited).success, "the limited config fits the protocol");
    assert.equal(all.allowedTools, undefined, "an unlimited Run records no limit");
    const again = await freezer.freeze(input, tools);
    assert.equal(again.tools, all.tools, "a limited Run does not disturb the cached part");
    const none = await freezer.freeze({ ...input, allowedTools: [] }, tools);
    assert.deepEqual(none.tools, [], "an empty list allows no tool");
  });
});
