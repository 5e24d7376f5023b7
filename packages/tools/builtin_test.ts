import assert from "node:assert/strict";
import { FILE_TOOLS } from "./mod.ts";

Deno.test("FILE_TOOLS are the six file tools, each described and classified", () => {
  assert.deepEqual(FILE_TOOLS.map((tool) => tool.id), [
    "read",
    "write",
    "edit",
    "list",
    "glob",
    "grep",
  ]);
  for (const tool of FILE_TOOLS) {
    assert.ok(tool.description.length > 100, `${tool.id} has its .md description`);
    assert.equal(tool.mutating, tool.id === "write" || tool.id === "edit", `${tool.id} mutating`);
    assert.equal(tool.risk, tool.mutating ? "write" : "read", `${tool.id} risk`);
  }
});
