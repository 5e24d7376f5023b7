import assert from "node:assert/strict";
import { relative } from "node:path";
import { LAZY_MODULES } from "./_load.ts";

const RUNTIME = new URL("../", import.meta.url);
const REPO = new URL("../../../", import.meta.url).pathname;

/** Every `load("./…", import.meta.url)` and MCP `url("./…")` specifier, resolved. */
async function lazySpecifiers(): Promise<string[]> {
  const found: string[] = [];
  const files = ["main.ts", "mcp/mcp_servers.ts"];
  for await (const entry of Deno.readDir(new URL("cli/", RUNTIME))) {
    if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) {
      files.push(`cli/${entry.name}`);
    }
  }
  for (const file of files) {
    const url = new URL(file, RUNTIME);
    const text = await Deno.readTextFile(url);
    for (const match of text.matchAll(/(?:load|url)(?:<[^>]*>)?\(\s*"(\.{1,2}\/[^"]+\.ts)"/g)) {
      found.push(relative(REPO, new URL(match[1]!, url).pathname));
    }
  }
  return [...new Set(found)].sort();
}

Deno.test("LAZY_MODULES lists exactly the modules loaded on use (what deno compile must include)", async () => {
  const used = await lazySpecifiers();
  assert.ok(used.length >= 7, `found the lazy loads: ${used.join(", ")}`);
  assert.deepEqual([...LAZY_MODULES].sort(), used);
  for (const path of LAZY_MODULES) {
    assert.ok((await Deno.stat(`${REPO}${path}`)).isFile, `${path} exists`);
  }
});
