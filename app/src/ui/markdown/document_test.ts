import assert from "node:assert/strict";
import { type ParsedDocument, parseDocument } from "./document.ts";

/** What a parse produced, comparable across parses: each block's source, start and tokens. */
function summary(doc: ParsedDocument) {
  const tokens = (list: readonly { type: string; content: string; children: unknown }[]) =>
    list.map((t) => `${t.type}:${t.content}`);
  return {
    blocks: doc.blocks.map((b) => ({
      source: b.source,
      start: b.start,
      tokens: tokens(b.tokens),
      inline: b.tokens.flatMap((t) => tokens(t.children ?? [])),
    })),
    footnotes: tokens(doc.footnotes),
  };
}

const STREAMED = [
  "# Plan\n\nFirst a paragraph that\ngoes on a second line.\n\n",
  "- one\n- two\n\n  still two\n- three\n\n",
  "| a | b |\n|---|---|\n| 1 | 2 |\n\n",
  "Setext heading\n---\n\n",
  "```ts\nconst x = 1;\n\nconst y = 2;\n```\n\n",
  "> quote\nlazy line\n\n    indented code\n\n",
  "1. [x] done\n2. [ ] todo\n\nThe end, with **bold** and www.example.com.",
].join("");

Deno.test("document: parsing a streamed text piece by piece equals parsing it whole", () => {
  for (const step of [1, 3, 7, 40]) {
    let doc: ParsedDocument | null = null;
    for (let end = step; end < STREAMED.length + step; end += step) {
      const text = STREAMED.slice(0, end);
      doc = parseDocument(text, doc);
      assert.deepEqual(summary(doc), summary(parseDocument(text)), `step ${step}, at ${end}`);
    }
  }
});

Deno.test("document: blocks before the last one are kept as they were while text grows", () => {
  const first = parseDocument("para one\n\n- a\n- b\n\ntail");
  const next = parseDocument("para one\n\n- a\n- b\n\ntail goes on\n\nnew", first);
  assert.equal(next.blocks[0], first.blocks[0], "the paragraph is the same object");
  assert.equal(next.blocks[1], first.blocks[1], "the list is the same object");
  assert.deepEqual(next.blocks.map((b) => b.source), [
    "para one\n",
    "- a\n- b\n\n", // a list's lines include the blank one after it
    "tail goes on\n",
    "new",
  ]);
});

Deno.test("document: a text that is not an extension is parsed afresh", () => {
  const first = parseDocument("alpha\n\nbeta");
  const other = parseDocument("gamma\n\nbeta", first);
  assert.notEqual(other.blocks[0], first.blocks[0]);
  assert.deepEqual(other.blocks.map((b) => b.source), ["gamma\n", "beta"]);
});

Deno.test("document: a definition after its use links it (definitions make it parse whole)", () => {
  let doc = parseDocument("See [the docs] and a note[^n].\n\n");
  assert.equal(doc.definitions, "");
  assert.ok(!doc.blocks[0]!.tokens[1]!.children!.some((t) => t.type === "link_open"));
  doc = parseDocument("See [the docs] and a note[^n].\n\n[the docs]: https://docs.example\n", doc);
  doc = parseDocument(
    "See [the docs] and a note[^n].\n\n[the docs]: https://docs.example\n[^n]: Here.",
    doc,
  );
  const inline = doc.blocks[0]!.tokens[1]!.children!;
  assert.deepEqual(
    inline.filter((t) => t.type === "link_open").map((t) => t.attrGet("href")),
    ["https://docs.example"],
  );
  assert.equal(inline.filter((t) => t.type === "footnote_ref").length, 1);
  assert.equal(doc.footnotes[0]?.type, "footnote_block_open");
  assert.equal(doc.definitions, "[the docs]: https://docs.example\n[^n]: Here.");
});

Deno.test("document: inline footnotes keep one numbering across the document", () => {
  let doc: ParsedDocument | null = null;
  const text = "A^[first]\n\nB^[second]\n\nC";
  for (let end = 1; end <= text.length; end++) doc = parseDocument(text.slice(0, end), doc);
  assert.deepEqual(summary(doc!), summary(parseDocument(text)));
  const refs = doc!.blocks.flatMap((b) => b.tokens.flatMap((t) => t.children ?? []))
    .filter((t) => t.type === "footnote_ref").map((t) => (t.meta as { id: number }).id);
  assert.deepEqual(refs, [0, 1]);
});

Deno.test("document: empty and blank texts have no blocks", () => {
  for (const text of ["", "\n", "   \n\n"]) {
    const doc = parseDocument(text);
    assert.deepEqual(doc.blocks, [], JSON.stringify(text));
    assert.deepEqual(parseDocument(`${text}x`, doc).blocks.map((b) => b.source.trim()), ["x"]);
  }
});
