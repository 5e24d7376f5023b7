import assert from "node:assert/strict";
import type { FilePreview } from "@daedalus/client";
import { applyPage, emptyPages, numberLines } from "./file_pages.ts";

const THREAD = "thr_01J0000000000000000000000";

function page(
  lineStart: number,
  content: string,
  nextOffset: number | null,
  revision = "r1",
): FilePreview {
  const lines = numberLines(content, lineStart).length;
  return {
    threadId: THREAD,
    path: "notes.txt",
    status: "text",
    revision,
    encoding: "utf-8",
    bom: false,
    content,
    lineStart,
    lineEnd: lineStart + lines - 1,
    nextOffset,
    truncated: nextOffset !== null,
    truncationReason: nextOffset !== null ? "page_limit" : null,
  };
}

Deno.test("numberLines counts CRLF and CR once and drops the final empty line", () => {
  assert.deepEqual(numberLines("a\r\nb\rc\n", 5), [
    { number: 5, text: "a" },
    { number: 6, text: "b" },
    { number: 7, text: "c" },
  ]);
  assert.deepEqual(numberLines("", 1), []);
  assert.deepEqual(numberLines("\n\n", 1), [{ number: 1, text: "" }, { number: 2, text: "" }]);
});

Deno.test("pages of one revision append in order", () => {
  let state = applyPage(emptyPages("notes.txt"), page(1, "one\ntwo\n", 3));
  assert.deepEqual(state.nextOffset, 3);
  assert.deepEqual(state.truncationReason, "page_limit");
  state = applyPage(state, page(3, "three\n", null));
  assert.deepEqual(state.lines.map((line) => line.number), [1, 2, 3]);
  assert.deepEqual(state.lines.at(-1)?.text, "three");
  assert.deepEqual(state.nextOffset, null);
  assert.deepEqual(state.truncationReason, null);
  assert.deepEqual(state.loading, false);
});

Deno.test("a page of another revision keeps the shown lines and says the file changed", () => {
  const first = applyPage(emptyPages("notes.txt"), page(1, "one\n", 2));
  const changed = applyPage(first, page(2, "TWO\n", null, "r2"));
  assert.deepEqual(changed.lines, first.lines);
  assert.deepEqual(changed.unavailable, "revision_changed");
  assert.deepEqual(changed.revision, "r1");
});

Deno.test("a repeated page is not shown twice", () => {
  const first = applyPage(emptyPages("notes.txt"), page(1, "one\ntwo\n", 3));
  const again = applyPage(first, page(1, "one\ntwo\n", 3));
  assert.deepEqual(again.lines.length, 2);
});

Deno.test("an unavailable answer records its reason", () => {
  const state = applyPage(emptyPages("bin.dat"), {
    threadId: THREAD,
    path: "bin.dat",
    status: "unavailable",
    reason: "binary_file",
  });
  assert.deepEqual(state.unavailable, "binary_file");
  assert.deepEqual(state.loading, false);
  assert.deepEqual(state.lines, []);
});
