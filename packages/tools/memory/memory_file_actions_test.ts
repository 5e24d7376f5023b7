/**
 * The `memory` tool's MEMORY.md actions through the one wrapper (validation, the gate,
 * the tool): read, append, and what refuses an append — a profile without MEMORY.md, a
 * mode that may not write the file, the user's rules — with the file checked on disk.
 * (turn.revert of an append, with the shipped flags: tests/e2e/memory_file_test.ts.)
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { ExecutionPolicy, PermissionRule } from "@daedalus/protocol";
import { createTestWorkspace } from "../_testing.ts";
import { executeTool } from "../execute.ts";
import { createRunGate } from "../gate.ts";
import { MEMORY_FILE_MAX_BYTES } from "../limits.ts";
import type { ToolContext } from "../tool.ts";
import { memoryTool } from "./memory.ts";
import { memoryFileAccess } from "./memory_file.ts";

/** A workspace with a home beside it, and a context whose profile enables MEMORY.md. */
async function memoryWorkspace(executionPolicy: ExecutionPolicy = "full_access") {
  const ws = await createTestWorkspace({ executionPolicy, protectedValues: ["sk-secret-123456"] });
  const home = join(ws.base, "home");
  await Deno.mkdir(home);
  const context: ToolContext = {
    ...ws.context,
    memoryFile: memoryFileAccess({ home, workspace: ws.root }),
  };
  return { ws, home, context };
}

const append = (content: string) => ({ action: "file_append", content });

async function textOf(path: string): Promise<string | null> {
  return await Deno.readTextFile(path).catch(() => null);
}

Deno.test("file_read returns the workspace's MEMORY.md, or says there is none", async () => {
  const { ws, context } = await memoryWorkspace();
  await using _ = ws;
  const none = await executeTool(memoryTool, { action: "file_read" }, context);
  assert.equal(none.isError, undefined, none.content);
  assert.match(none.content, /^No MEMORY\.md with content \(looked at .*workspace\/MEMORY\.md, /);
  await ws.write("MEMORY.md", "- The build uses make\n");
  const read = await executeTool(memoryTool, { action: "file_read" }, context);
  assert.equal(read.content, `${join(ws.root, "MEMORY.md")} (22 bytes):\n- The build uses make\n`);
  assert.deepEqual(read.details?.truncated, false);
});

Deno.test("without the profile's memoryFile both actions are refused and nothing is written", async () => {
  await using ws = await createTestWorkspace();
  await ws.write("MEMORY.md", "notes\n");
  for (const args of [{ action: "file_read" }, append("more")]) {
    const result = await executeTool(memoryTool, args, ws.context);
    assert.equal(result.errorCode, "memory_file_disabled", JSON.stringify(args));
  }
  assert.equal(await textOf(join(ws.root, "MEMORY.md")), "notes\n");
  assert.deepEqual(ws.context.facts.fileChanges, []);
});

Deno.test("file_append adds a paragraph atomically and records the change like an edit", async () => {
  const { ws, context } = await memoryWorkspace("workspace_write");
  await using _ = ws;
  const created = await executeTool(memoryTool, append("  First note  "), context);
  assert.equal(created.isError, undefined, created.content);
  assert.equal(await textOf(join(ws.root, "MEMORY.md")), "First note\n");
  assert.equal(created.details?.created, true);
  const more = await executeTool(memoryTool, append("Second note"), context);
  assert.equal(more.isError, undefined, more.content);
  assert.equal(await textOf(join(ws.root, "MEMORY.md")), "First note\n\nSecond note\n");
  const [first, second] = context.facts.fileChanges;
  assert.equal(context.facts.fileChanges.length, 2);
  assert.equal(first?.path, "MEMORY.md");
  assert.equal(first?.operation, "edit");
  assert.equal((first?.before as { exists: boolean }).exists, false);
  assert.equal(second?.additions, 2);
  assert.equal(second?.deletions, 0);
  assert.equal((second?.before as { text?: string }).text, "First note\n");
  assert.equal((second?.after as { text?: string }).text, "First note\n\nSecond note\n");
  assert.match(String(second?.diff), /\+Second note/);
  const leftovers = [...Deno.readDirSync(ws.root)].map((entry) => entry.name);
  assert.deepEqual(leftovers, ["MEMORY.md"], "no temp file is left behind");
});

Deno.test("an append goes to the home's MEMORY.md when that is the one with content", async () => {
  const { ws, home, context } = await memoryWorkspace("full_access");
  await using _ = ws;
  await Deno.writeTextFile(join(home, "MEMORY.md"), "Home notes");
  const result = await executeTool(memoryTool, append("Added"), context);
  assert.equal(result.isError, undefined, result.content);
  assert.equal(await textOf(join(home, "MEMORY.md")), "Home notes\n\nAdded\n");
  assert.equal(await textOf(join(ws.root, "MEMORY.md")), null, "no workspace copy appears");
  assert.equal(context.facts.fileChanges[0]?.path, join(home, "MEMORY.md"));
});

Deno.test("the gate judges an append as a write: read_only refuses it, workspace_write refuses one outside", async () => {
  {
    const { ws, context } = await memoryWorkspace("read_only");
    await using _ = ws;
    await ws.write("MEMORY.md", "notes\n");
    const refused = await executeTool(memoryTool, append("more"), context);
    assert.equal(refused.errorCode, "permission_denied");
    assert.match(refused.content, /memory writes, and this run is read_only/);
    assert.equal(await textOf(join(ws.root, "MEMORY.md")), "notes\n");
    const read = await executeTool(memoryTool, { action: "file_read" }, context);
    assert.equal(read.isError, undefined, "reading is fine in read_only");
  }
  {
    const { ws, home, context } = await memoryWorkspace("workspace_write");
    await using _ = ws;
    await Deno.writeTextFile(join(home, "MEMORY.md"), "home\n");
    const refused = await executeTool(memoryTool, append("more"), context);
    assert.equal(refused.errorCode, "permission_denied");
    assert.match(refused.content, /MEMORY\.md is outside the workspace, and this run is/);
    assert.equal(await textOf(join(home, "MEMORY.md")), "home\n");
  }
});

Deno.test("under ask, an append outside the workspace asks with a write rule; the rule lets it through", async () => {
  const { ws, home, context } = await memoryWorkspace("ask");
  await using _ = ws;
  const homeFile = join(home, "MEMORY.md");
  await Deno.writeTextFile(homeFile, "home\n");
  const gate = createRunGate({ executionPolicy: "ask", askUser: true });
  const asked = await executeTool(memoryTool, append("more"), { ...context, gate });
  assert.equal(asked.errorCode, "approval_required");
  assert.deepEqual(asked.awaitsApproval?.rule, {
    tool: "write",
    pattern: homeFile,
    decision: "allow",
  });
  assert.equal(await textOf(homeFile), "home\n", "nothing written while it asks");
  const rule = asked.awaitsApproval?.rule as PermissionRule;
  const allowed = createRunGate({ executionPolicy: "ask", askUser: true, threadRules: [rule] });
  const ran = await executeTool(memoryTool, append("more"), { ...context, gate: allowed });
  assert.equal(ran.isError, undefined, ran.content);
  assert.equal(await textOf(homeFile), "home\n\nmore\n");
});

Deno.test("the user's rules for memory and for writes both hold for an append", async () => {
  const { ws, context } = await memoryWorkspace("full_access");
  await using _ = ws;
  const rules: PermissionRule[][] = [
    [{ tool: "memory", decision: "deny" }],
    [{ tool: "write", pattern: "MEMORY.md", decision: "deny" }],
  ];
  for (const configRules of rules) {
    const gate = createRunGate({ executionPolicy: "full_access", configRules });
    const refused = await executeTool(memoryTool, append("x"), { ...context, gate });
    assert.equal(refused.errorCode, "permission_denied", JSON.stringify(configRules));
    assert.match(refused.content, /is denied by permission rule config\[0\]/);
  }
  assert.equal(await textOf(join(ws.root, "MEMORY.md")), null);
});

Deno.test("an append carrying a credential, or growing the file past its limit, is refused", async () => {
  const { ws, context } = await memoryWorkspace("full_access");
  await using _ = ws;
  const secret = await executeTool(memoryTool, append("key sk-secret-123456"), context);
  assert.equal(secret.errorCode, "protected_value");
  const big = "x".repeat(MEMORY_FILE_MAX_BYTES - 10) + "\n";
  await ws.write("MEMORY.md", big);
  const tooLarge = await executeTool(memoryTool, append("one more line"), context);
  assert.equal(tooLarge.errorCode, "file_too_large");
  assert.equal(await textOf(join(ws.root, "MEMORY.md")), big);
  assert.deepEqual(context.facts.fileChanges, []);
});

Deno.test("an append is refused when every place of MEMORY.md is unusable", async () => {
  const { ws, home, context } = await memoryWorkspace("full_access");
  await using _ = ws;
  await Deno.mkdir(join(ws.root, "MEMORY.md"));
  await Deno.writeFile(join(home, "MEMORY.md"), new Uint8Array([0xff, 0xfe]));
  const refused = await executeTool(memoryTool, append("x"), context);
  assert.equal(refused.errorCode, "memory_file_unavailable");
  assert.match(refused.content, /not_a_file.*invalid_utf8/);
});
