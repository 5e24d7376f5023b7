import assert from "node:assert/strict";
import { assignToolNames, mcpToolName, refKey } from "./tool_names.ts";

const RULE = /^[a-zA-Z0-9_-]{1,64}$/;

const PLAIN: [string, string, string][] = [
  ["everything", "get-sum", "mcp__everything__get-sum"],
  ["fs", "read_text_file", "mcp__fs__read_text_file"],
  ["fs", "read.file", "mcp__fs__read_file"],
  ["fs", "résumé", "mcp__fs__r_sum_"],
  ["fs", "", "mcp__fs___"],
];

for (const [server, tool, expected] of PLAIN) {
  Deno.test(`${server}/${JSON.stringify(tool)} is offered as ${expected}`, () => {
    const name = mcpToolName({ server, tool });
    assert.equal(name, expected);
    assert.match(name, RULE);
  });
}

Deno.test("a name over 64 characters is cut and hashed, the same every time", () => {
  const ref = { server: "a-long-server-name", tool: "x".repeat(80) };
  const name = mcpToolName(ref);
  assert.equal(name.length, 64, name);
  assert.match(name, RULE);
  assert.match(name, /_[0-9a-f]{8}$/);
  assert.equal(mcpToolName({ ...ref }), name, "deterministic");
  assert.notEqual(mcpToolName({ ...ref, tool: "x".repeat(81) }), name, "another tool differs");
});

Deno.test("tools that sanitise alike get distinct names; an exact one keeps its own", () => {
  const refs = [
    { server: "fs", tool: "read.file" },
    { server: "fs", tool: "read_file" },
    { server: "fs", tool: "read file" },
  ];
  const forward = assignToolNames(refs);
  const backward = assignToolNames([...refs].reverse());
  assert.equal(forward.get(refKey(refs[1]!)), "mcp__fs__read_file", "the exact name stays");
  const names = new Set(forward.values());
  assert.equal(names.size, 3, `distinct: ${[...names]}`);
  for (const name of names) assert.match(name, RULE);
  assert.deepEqual([...forward].sort(), [...backward].sort(), "order does not matter");
});

Deno.test("two servers whose names join alike both get hashed names", () => {
  const refs = [{ server: "a__b", tool: "c" }, { server: "a", tool: "b__c" }];
  const names = assignToolNames(refs);
  const [first, second] = refs.map((ref) => names.get(refKey(ref)));
  assert.notEqual(first, second, `${first} vs ${second}`);
  assert.notEqual(first, "mcp__a__b__c");
});
