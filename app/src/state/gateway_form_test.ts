import assert from "node:assert/strict";
import { type McpServer, TOOL_IDS } from "@daedalus/client";
import {
  checkKeyForm,
  emptyKeyForm,
  type KeyForm,
  modelChoice,
  toolChoices,
} from "./gateway_form.ts";

const valid: KeyForm = {
  ...emptyKeyForm(modelChoice("deepseek", "deepseek-chat")),
  name: "  Support desk ",
};

Deno.test("gateway form: a minimal form is the name, the model and the preset", () => {
  assert.deepEqual(checkKeyForm(valid), {
    ok: true,
    params: {
      name: "Support desk",
      profile: { providerId: "deepseek", modelId: "deepseek-chat", permission: "ask" },
    },
  });
});

Deno.test("gateway form: workspace, tools and origins are trimmed, split and deduplicated", () => {
  const checked = checkKeyForm({
    ...valid,
    model: "custom/org/model-1",
    permission: "read_only",
    workspace: " /srv/project ",
    toolsMode: "only",
    tools: ["read", "grep", "read", "mcp__files__read_file"],
    origins: "https://app.example.com\nhttp://localhost:3000, https://app.example.com",
  });
  assert.ok(checked.ok, JSON.stringify(checked));
  assert.deepEqual(checked.params.profile, {
    providerId: "custom",
    modelId: "org/model-1",
    permission: "read_only",
    workspace: "/srv/project",
    tools: ["read", "grep", "mcp__files__read_file"],
    allowedOrigins: ["https://app.example.com", "http://localhost:3000"],
  });
});

Deno.test("gateway form: each wrong field is named with its own message", () => {
  const cases: Array<[string, Partial<KeyForm>, keyof KeyForm, string]> = [
    ["an empty name", { name: "   " }, "name", "gateway.form.error.name"],
    ["a name over the limit", { name: "x".repeat(101) }, "name", "gateway.form.error.name"],
    ["no model", { model: "" }, "model", "gateway.form.error.model"],
    ["a model without provider", { model: "/m" }, "model", "gateway.form.error.model"],
    ["a model without id", { model: "p/" }, "model", "gateway.form.error.model"],
    ["a relative workspace", { workspace: "src/app" }, "workspace", "gateway.form.error.workspace"],
    [
      "a tool id over the limit",
      { toolsMode: "only", tools: ["t".repeat(201)] },
      "tools",
      "gateway.form.error.tools",
    ],
    ["an empty tool id", { toolsMode: "only", tools: [""] }, "tools", "gateway.form.error.tools"],
    [
      "too many tools",
      { toolsMode: "only", tools: Array.from({ length: 201 }, (_, i) => `t${i}`) },
      "tools",
      "gateway.form.error.tools",
    ],
    [
      "an origin without scheme",
      { origins: "app.example.com" },
      "origins",
      "gateway.form.error.origins",
    ],
    [
      "a non-web origin",
      { origins: "ftp://files.example.com" },
      "origins",
      "gateway.form.error.origins",
    ],
    [
      "too many origins",
      { origins: Array.from({ length: 21 }, (_, i) => `https://a${i}.example.com`).join("\n") },
      "origins",
      "gateway.form.error.origins",
    ],
  ];
  for (const [name, change, field, key] of cases) {
    const checked = checkKeyForm({ ...valid, ...change });
    assert.equal(checked.ok, false, `${name} was accepted`);
    if (checked.ok) continue;
    assert.deepEqual(Object.keys(checked.problems), [field], `${name}: wrong fields`);
    assert.equal(checked.problems[field]?.key, key, name);
  }
  assert.ok(checkKeyForm({ ...valid, workspace: "C:\\work" }).ok, "a Windows path is absolute");
  assert.ok(checkKeyForm({ ...valid, name: "x".repeat(100) }).ok, "100 characters fit");
});

Deno.test("gateway form: tools are all of the runtime's unless limited; a limit may be none", () => {
  const all = checkKeyForm({ ...valid, tools: ["read"] });
  assert.ok(all.ok && !("tools" in all.params.profile), "all tools must send no tools list");
  const none = checkKeyForm({ ...valid, toolsMode: "only", tools: [] });
  assert.ok(none.ok, JSON.stringify(none));
  assert.deepEqual(none.params.profile.tools, [], "a key limited to no tools lost its limit");
});

Deno.test("gateway form: the tool choices are the built-in tools, then offered MCP tools", () => {
  const tool = (name: string, modelName: string | null, enabled = true) => ({
    name,
    modelName,
    title: null,
    description: null,
    enabled,
    readOnly: false,
    destructive: false,
  });
  const server = {
    name: "files",
    tools: [
      tool("read_file", "mcp__files__read_file"),
      tool("write_file", "mcp__files__write_file", false),
      tool("pending", null),
      tool("read_file", "mcp__files__read_file"),
    ],
  } as unknown as McpServer;
  const choices = toolChoices([server]);
  assert.equal(choices[0], "read");
  assert.equal(choices.length, TOOL_IDS.length + 1, choices.join(","));
  assert.equal(choices.at(-1), "mcp__files__read_file");
  assert.deepEqual(toolChoices([]), [...TOOL_IDS]);
});
