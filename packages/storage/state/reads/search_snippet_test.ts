import assert from "node:assert/strict";
import { buildSnippet, findMatches } from "./search_snippet.ts";

/** The snippet with its highlights drawn as [brackets], to compare in one string. */
function marked(content: string, query: string, maxChars?: number): string {
  const { text, highlights } = buildSnippet(content, query, maxChars);
  let out = "";
  let at = 0;
  for (const { start, end } of highlights) {
    assert.ok(start >= at && end > start && end <= text.length, `bad highlight ${start}-${end}`);
    out += `${text.slice(at, start)}[${text.slice(start, end)}]`;
    at = end;
  }
  return out + text.slice(at);
}

Deno.test("findMatches finds every non-overlapping case-insensitive occurrence", () => {
  const cases: [string, string, [number, number][]][] = [
    ["abc ABC aBc", "abc", [[0, 3], [4, 7], [8, 11]]],
    ["aaaa", "aa", [[0, 2], [2, 4]]],
    ["nothing here", "xyz", []],
    ["empty needle", "", []],
    ["你好世界你好", "你好", [[0, 2], [4, 6]]],
    ["emoji 🙂 then 🙂", "🙂", [[6, 8], [14, 16]]],
    // "İ" lowercases to two code units; the match must map back to the one original.
    ["İstanbul", "i̇stanbul", [[0, 8]]],
    ["ΣΊΣΥΦΟΣ", "σίσυφοσ", [[0, 7]]],
  ];
  for (const [haystack, needle, expected] of cases) {
    const found = findMatches(haystack, needle).map((m) => [m.start, m.end]);
    assert.deepEqual(found, expected, `${JSON.stringify(needle)} in ${JSON.stringify(haystack)}`);
  }
});

Deno.test("buildSnippet marks matches in short texts whole and collapses whitespace", () => {
  const cases: [string, string, string][] = [
    ["The quick brown fox", "QUICK", "The [quick] brown fox"],
    ["line one\n\n  line two", "one line", "line [one line] two"],
    ["  padded  ", "padded", "[padded]"],
    ["no match at all", "zebra", "no match at all"],
    ['say "hi" (now)', '"hi" (', 'say ["hi" (]now)'],
    ["数据库迁移计划", "迁移", "数据库[迁移]计划"],
  ];
  for (const [content, query, expected] of cases) {
    assert.equal(marked(content, query), expected, `snippet of ${JSON.stringify(content)}`);
  }
});

Deno.test("buildSnippet cuts long texts around the first match with ellipses", () => {
  const before = "lorem ipsum ".repeat(30);
  const after = " dolor sit amet".repeat(30);
  const content = `${before}NEEDLE${after} needle at the end`;
  const { text, highlights } = buildSnippet(content, "needle", 80);
  assert.ok(text.length <= 80, `snippet is ${text.length} chars`);
  assert.ok(text.startsWith("…") && text.endsWith("…"), `both ends cut: ${text}`);
  assert.equal(highlights.length, 1, "the far match lies outside the window");
  const [hit] = highlights;
  assert.equal(text.slice(hit!.start, hit!.end), "NEEDLE");
  assert.ok(hit!.start > 10, "some context comes before the match");
  assert.ok(text.slice(1).startsWith("lorem") || text.slice(1).startsWith("ipsum"), text);
});

Deno.test("buildSnippet starts at the beginning when the match is near it or missing", () => {
  const content = `needle first ${"x".repeat(300)}`;
  const near = buildSnippet(content, "needle", 50);
  assert.equal(near.text.length, 50);
  assert.ok(near.text.startsWith("needle") && near.text.endsWith("…"), near.text);
  assert.deepEqual(near.highlights, [{ start: 0, end: 6 }]);
  const missing = buildSnippet(content, "absent", 50);
  assert.ok(missing.text.startsWith("needle first"), missing.text);
  assert.deepEqual(missing.highlights, []);
  const end = buildSnippet(`${"y".repeat(300)} needle`, "needle", 50);
  assert.ok(end.text.startsWith("…") && end.text.endsWith("needle"), end.text);
  assert.equal(end.text.length <= 50, true);
});

Deno.test("buildSnippet clips a match longer than the window and never splits a surrogate pair", () => {
  const long = buildSnippet(`${"a".repeat(100)}${"b".repeat(200)}`, "b".repeat(200), 40);
  assert.ok(long.text.length <= 40);
  const [hit] = long.highlights;
  assert.ok(hit !== undefined && /^b+$/.test(long.text.slice(hit.start, hit.end)));
  for (let pad = 0; pad < 4; pad++) {
    const content = `${"x".repeat(pad)}${"🙂".repeat(120)} target ${"🙂".repeat(120)}`;
    const { text } = buildSnippet(content, "target", 61);
    assert.ok(text.length <= 61, `pad ${pad}: ${text.length} chars`);
    assert.ok(
      !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text),
      `pad ${pad}: a lone surrogate in ${JSON.stringify(text)}`,
    );
  }
});

Deno.test("buildSnippet finds a match deep in a megabyte answer exactly", () => {
  const content = `${"lorem ipsum dolor sit amet ".repeat(40_000)}the İstanbul NEEDLE here`;
  // One lowercase scan, then a fold of the shown stretch only (a fold of every character
  // took 160–280 ms for this text; this takes 25–55 ms, mostly the whitespace pass).
  const { text, highlights } = buildSnippet(content, "needle");
  assert.equal(highlights.length, 1);
  assert.equal(text.slice(highlights[0]!.start, highlights[0]!.end), "NEEDLE");
  assert.ok(text.endsWith("NEEDLE here"), text);
  assert.ok(text.startsWith("…"), text);
});
