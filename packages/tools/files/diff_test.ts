import assert from "node:assert/strict";
import { diffLines, diffOps, splitLines } from "./diff.ts";

function apply(ops: ReturnType<typeof diffOps>, side: "before" | "after"): string[] {
  const skip = side === "before" ? "insert" : "delete";
  return ops.filter((op) => op.kind !== skip).map((op) => op.line);
}

Deno.test("splitLines keeps terminators and the last unterminated line", () => {
  assert.deepEqual(splitLines(""), []);
  assert.deepEqual(splitLines("a\nb\n"), ["a\n", "b\n"]);
  assert.deepEqual(splitLines("a\r\nb"), ["a\r\n", "b"]);
});

Deno.test("identical texts have an empty diff", () => {
  assert.deepEqual(diffLines("a\nb\n", "a\nb\n", { path: "x" }), {
    unified: "",
    additions: 0,
    deletions: 0,
  });
});

Deno.test("one changed line gives one hunk with three lines of context", () => {
  const before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
  const after = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
  const diff = diffLines(before, after, { path: "n.txt" });
  assert.equal(
    diff.unified,
    "--- a/n.txt\n+++ b/n.txt\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n",
  );
  assert.equal(diff.additions, 1);
  assert.equal(diff.deletions, 1);
});

Deno.test("a new file diffs against /dev/null from line 0", () => {
  const diff = diffLines("", "a\nb\n", { path: "new.txt", beforeExists: false });
  assert.equal(diff.unified, "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n");
});

Deno.test("a missing final newline is marked", () => {
  const diff = diffLines("a\n", "a\nb", { path: "x" });
  assert.match(diff.unified, /\+b\n\\ No newline at end of file\n$/);
  assert.equal(diff.additions, 1);
});

Deno.test("changes far apart give separate hunks", () => {
  const lines = Array.from({ length: 40 }, (_, i) => `line ${i}`);
  const changed = lines.map((line, i) => i === 2 || i === 30 ? `${line}!` : line);
  const diff = diffLines(lines.join("\n") + "\n", changed.join("\n") + "\n", { path: "x" });
  assert.equal(diff.unified.match(/^@@/gm)?.length, 2);
  assert.match(diff.unified, /@@ -1,6 \+1,6 @@/);
  assert.match(diff.unified, /@@ -28,7 \+28,7 @@/);
});

Deno.test("the edit script rebuilds both sides, minimal or bounded", () => {
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let round = 0; round < 200; round++) {
    const make = () =>
      Array.from({ length: Math.floor(random() * 30) }, () => `${Math.floor(random() * 5)}\n`);
    const a = make();
    const b = make();
    for (const bound of [1000, 2]) {
      const ops = diffOps(a, b, bound);
      assert.deepEqual(apply(ops, "before"), a, `round ${round} bound ${bound}: old side`);
      assert.deepEqual(apply(ops, "after"), b, `round ${round} bound ${bound}: new side`);
    }
  }
});

Deno.test("the diff is minimal when within the bound", () => {
  const ops = diffOps(["a", "b", "c", "a", "b", "b", "a"], ["c", "b", "a", "b", "a", "c"]);
  assert.equal(ops.filter((op) => op.kind !== "equal").length, 5, "Myers' paper example: D = 5");
});

Deno.test("a rewrite beyond the bound replaces the middle whole", () => {
  const a = Array.from({ length: 50 }, (_, i) => `a${i}\n`);
  const b = Array.from({ length: 50 }, (_, i) => `b${i}\n`);
  const ops = diffOps(["head\n", ...a, "tail\n"], ["head\n", ...b, "tail\n"], 10);
  assert.equal(ops.filter((op) => op.kind === "delete").length, 50);
  assert.equal(ops.filter((op) => op.kind === "insert").length, 50);
  assert.deepEqual(ops[0], { kind: "equal", line: "head\n" });
});
