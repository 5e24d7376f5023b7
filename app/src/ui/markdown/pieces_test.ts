import assert from "node:assert/strict";
import { openFenceAt, pieceEnd, type Pieces, pieceSource, splitPieces } from "./pieces.ts";

Deno.test("pieceEnd: a blank line, else a line end, a space, or the window's end", () => {
  const cases: readonly [string, number, number, number][] = [
    // text, start, max, expected end
    ["short", 0, 10, 5],
    ["aaaa\n\nbbbb\ncc dd ee", 0, 8, 6],
    ["aaaaaa\nbbbbbbbbbbbb", 0, 10, 7],
    ["aaaaaa bbbbbbbbbbbb", 0, 10, 7],
    ["aaaa bbbbbbbbbbbbbb", 0, 10, 10], // a space in the first half is too early
    ["aaaaaaaaaaaaaaaaaaaa", 0, 10, 10],
    // a blank line in the first half is too early: the line end in the second half wins
    ["a\n\nbbbbbb\nccccccccc", 0, 12, 10],
    ["xxxxx" + "aaaa\n\nbbbbbbbbbb", 5, 10, 11],
  ];
  for (const [text, start, max, want] of cases) {
    assert.equal(pieceEnd(text, start, max), want, `${JSON.stringify(text)} from ${start}`);
  }
});

Deno.test("pieceEnd: never between the halves of a surrogate pair", () => {
  const text = "a".repeat(9) + "😀" + "b".repeat(10);
  assert.equal(pieceEnd(text, 0, 10), 9);
});

Deno.test("openFenceAt: follows fences opening and closing", () => {
  const text = "x\n```ts\ncode\n```\n~~~~\nin ``` tilde\n~~~\n~~~~\nafter\n````md\n```\n";
  assert.equal(openFenceAt(text, 0, text.indexOf("code"), ""), "```ts");
  assert.equal(openFenceAt(text, 0, text.indexOf("in ```"), ""), "~~~~");
  assert.equal(
    openFenceAt(text, 0, text.indexOf("~~~\n~~~~"), ""),
    "~~~~",
    "a shorter ~~~ does not close ~~~~",
  );
  assert.equal(openFenceAt(text, 0, text.indexOf("after"), ""), "");
  assert.equal(openFenceAt(text, 0, text.length, ""), "````md", "``` does not close ````");
  assert.equal(openFenceAt("code\n```\nnext", 0, 9, "```py"), "", "an open fence closes");
  assert.equal(openFenceAt("``` a`b\n", 0, 8, ""), "", "a backtick in the info is no fence");
});

function check(text: string, pieces: Pieces, first: number, rest: number) {
  assert.equal(pieces.text, text);
  let at = 0;
  for (const [i, piece] of pieces.pieces.entries()) {
    assert.equal(piece.start, at, `piece ${i} starts where ${i - 1} ended`);
    assert.ok(piece.end > piece.start || text === "", `piece ${i} is not empty`);
    assert.ok(piece.end - piece.start <= (i === 0 ? first : rest), `piece ${i} fits`);
    at = piece.end;
  }
  assert.equal(at, text.length, "the pieces cover the text");
}

const LONG = Array.from(
  { length: 60 },
  (_, i) =>
    i % 7 === 3
      ? "```js\n" + `const v${i} = ${i};\n`.repeat(12) + "```\n\n"
      : `Paragraph ${i} with words words words words words.\n\n`,
).join("");

Deno.test("splitPieces: covers the text in bounded pieces; fences carry over", () => {
  const pieces = splitPieces(LONG, { first: 300, rest: 200 });
  check(LONG, pieces, 300, 200);
  assert.ok(pieces.pieces.length > 10);
  for (const piece of pieces.pieces) {
    const open = openFenceAt(LONG, 0, piece.start, "");
    assert.equal(piece.prefix, open, `the fence open at ${piece.start}`);
    if (piece.prefix) assert.ok(pieceSource(LONG, piece).startsWith("```js\n"));
  }
  assert.ok(pieces.pieces.some((p) => p.prefix !== ""), "some cut falls inside code");
});

Deno.test("splitPieces: growing text keeps the earlier pieces and equals a fresh split", () => {
  let pieces = null as Pieces | null;
  for (let end = 0; end <= LONG.length; end += 37) {
    const text = LONG.slice(0, end);
    const before = pieces as Pieces | null;
    pieces = splitPieces(text, { first: 300, rest: 200 }, pieces);
    assert.deepEqual(pieces, splitPieces(text, { first: 300, rest: 200 }), `at ${end}`);
    if (before) {
      for (const [i, piece] of before.pieces.slice(0, -1).entries()) {
        assert.equal(pieces.pieces[i], piece, `piece ${i} kept at ${end}`);
      }
    }
  }
});

Deno.test("splitPieces: one endless line is cut at spaces or hard", () => {
  const words = "word ".repeat(1000);
  check(words, splitPieces(words, { first: 1000, rest: 500 }), 1000, 500);
  const solid = "x".repeat(2500);
  const pieces = splitPieces(solid, { first: 1000, rest: 500 });
  assert.deepEqual(pieces.pieces.map((p) => p.end - p.start), [1000, 500, 500, 500]);
  assert.deepEqual(splitPieces("", { first: 10, rest: 5 }).pieces, [{
    start: 0,
    end: 0,
    prefix: "",
  }]);
});
