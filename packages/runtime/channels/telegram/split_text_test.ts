import assert from "node:assert/strict";
import { splitTelegramText } from "./split_text.ts";

function assertWellFormed(pieces: string[], max: number): void {
  for (const [index, piece] of pieces.entries()) {
    assert.ok(piece.length > 0 && piece.length <= max, `piece ${index} has ${piece.length} units`);
    assert.ok(piece.isWellFormed(), `piece ${index} splits a surrogate pair`);
  }
}

const CASES: { name: string; text: string; max: number; lengths?: number[]; joined?: string }[] = [
  { name: "blank text sends nothing", text: "  \n ", max: 10, lengths: [] },
  { name: "short text is one piece", text: "hello", max: 10, lengths: [5] },
  { name: "exactly the limit is one piece", text: "a".repeat(10), max: 10, lengths: [10] },
  {
    name: "no boundary: hard cut at the limit",
    text: "a".repeat(25),
    max: 10,
    lengths: [10, 10, 5],
  },
  { name: "words stay whole", text: "aaaa bbbb cccc dddd", max: 10, joined: "aaaa bbbb|cccc dddd" },
  {
    name: "a line break wins over a space",
    text: "aaa bb\ncccc dd",
    max: 10,
    joined: "aaa bb|cccc dd",
  },
  { name: "an emoji is never cut in half", text: "aaaaaaaaa😀b", max: 10, joined: "aaaaaaaaa|😀b" },
];

for (const { name, text, max, lengths, joined } of CASES) {
  Deno.test(`splitTelegramText: ${name}`, () => {
    const pieces = splitTelegramText(text, max);
    assertWellFormed(pieces, max);
    if (lengths) assert.deepEqual(pieces.map((p) => p.length), lengths);
    if (joined) assert.equal(pieces.join("|"), joined);
  });
}

Deno.test("splitTelegramText: 9,000 characters with emoji become 3 well-formed pieces", () => {
  const text = ("Daedalus 😀 flies ".repeat(600)).slice(0, 9_000);
  const pieces = splitTelegramText(text);
  assert.equal(pieces.length, 3, `got ${pieces.length} pieces`);
  assertWellFormed(pieces, 4_096);
  assert.equal(
    pieces.join(" ").replace(/\s+/g, " "),
    text.trim().replace(/\s+/g, " "),
    "no text may be lost",
  );
});

Deno.test("splitTelegramText: a long run of emoji splits on pair boundaries only", () => {
  const pieces = splitTelegramText("😀".repeat(5_000));
  assertWellFormed(pieces, 4_096);
  assert.equal(pieces.join(""), "😀".repeat(5_000));
});

Deno.test("splitTelegramText: refuses a limit below 2", () => {
  assert.throws(() => splitTelegramText("abc", 1), RangeError);
});
