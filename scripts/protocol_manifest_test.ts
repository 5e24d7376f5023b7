import assert from "node:assert/strict";
import { buildProtocolManifest } from "@daedalus/protocol";
import { firstDifference, formatManifest, runtimeProtocolManifest } from "./protocol_manifest.ts";

const checkedIn = new URL("../protocol/runtime-protocol.json", import.meta.url);

/** The manifest as loosely typed JSON, to edit copies of it. */
function manifestJson(): Record<string, Record<string, Record<string, unknown>>> {
  return JSON.parse(JSON.stringify(buildProtocolManifest()));
}

Deno.test("the checked-in manifest is what the schemas generate", async () => {
  assert.equal(await Deno.readTextFile(checkedIn), formatManifest(runtimeProtocolManifest()));
});

Deno.test("the manifest lists every method, event, tool and code", () => {
  const manifest = buildProtocolManifest();
  assert.equal(Object.keys(manifest.methods).length, 73);
  assert.equal(Object.keys(manifest.events).length, 27);
  assert.deepEqual(Object.keys(manifest.canonicalEvents), [
    "text_delta",
    "reasoning_delta",
    "file_output",
    "tool_call_start",
    "tool_call_end",
    "subagent_start",
    "subagent_end",
    "node_lifecycle",
    "interrupt",
    "usage",
    "error",
    "custom",
    "done",
  ]);
  const names = [
    "approval.respond",
    "approval.list",
    "permission.read",
    "permission.update",
    "permission.addRule",
    "permission.removeRule",
    "breaker.list",
    "model.set_fallback",
    "branch.create",
    "branch.list",
    "thread.set_active_branch",
    "mcp.list",
    "mcp.configure",
    "mcp.remove",
    "mcp.set_enabled",
    "mcp.tool.set_enabled",
    "mcp.restart",
  ];
  for (const name of names) {
    assert.ok(name in manifest.methods, `the manifest lacks ${name}`);
  }
  for (
    const type of [
      "approval.requested",
      "approval.resolved",
      "run.model_fallback",
      "branch.created",
      "thread.branch_switched",
      "mcp.status_changed",
      "item.progress",
    ]
  ) {
    assert.ok(type in manifest.events, `the manifest lacks ${type}`);
  }
  assert.equal(manifest.tools.length, 23);
  assert.equal(manifest.errors.memoryOperationFailed, -32020);
});

Deno.test("a stale manifest is reported with the path of the first difference", () => {
  const fresh = manifestJson();
  const stale = structuredClone(fresh);
  delete stale.methods?.["thread.get"]?.params;
  assert.equal(
    firstDifference(fresh, stale),
    '$["methods"]["thread.get"]["params"]: missing from the checked-in file',
  );
  const renamed = structuredClone(fresh);
  (renamed.reasonCodes as unknown as Record<string, string[]>).run![0] = "canceled";
  assert.match(
    firstDifference(fresh, renamed) ?? "",
    /reasonCodes.*run.*\[0\].*"cancelled".*"canceled"/,
  );
  assert.equal(firstDifference(fresh, structuredClone(fresh)), null);
});
