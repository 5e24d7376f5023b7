import assert from "node:assert/strict";
import { ProtectedValues, REDACTED_MARKER } from "./protected_values.ts";
import { StreamRedactor } from "./stream_redactor.ts";

const KEY = "sk-canary-0123456789abcdef";

function protect(...values: string[]): ProtectedValues {
  const protectedValues = new ProtectedValues();
  for (const value of values) protectedValues.register(value);
  return protectedValues;
}

/** Streams `pieces` through a fresh redactor; returns what it released, piece by piece. */
function stream(values: ProtectedValues, pieces: string[]): string[] {
  const redactor = new StreamRedactor(values);
  const released = pieces.map((piece) => redactor.push(piece));
  released.push(redactor.flush());
  return released;
}

function assertNoLeak(released: string[], secret: string, label: string): void {
  const joined = released.join("");
  assert.ok(!joined.includes(secret), `${label}: the secret was released: ${joined}`);
  for (let index = 0; index + 8 <= secret.length; index++) {
    const window = secret.slice(index, index + 8);
    assert.ok(!joined.includes(window), `${label}: a piece "${window}" was released`);
  }
}

Deno.test("a key split at every position over two pieces is redacted as one marker", () => {
  const values = protect(KEY);
  const text = `before ${KEY} after`;
  for (let cut = 0; cut <= text.length; cut++) {
    const released = stream(values, [text.slice(0, cut), text.slice(cut)]);
    assertNoLeak(released, KEY, `cut ${cut}`);
    assert.equal(released.join(""), `before ${REDACTED_MARKER} after`, `cut ${cut}`);
  }
});

Deno.test("a key streamed one code point at a time is redacted", () => {
  const values = protect(KEY);
  const text = `x${KEY}y`;
  const released = stream(values, Array.from(text));
  assertNoLeak(released, KEY, "per character");
  assert.equal(released.join(""), `x${REDACTED_MARKER}y`);
});

Deno.test("a key split over three pieces at every pair of positions matches redact()", () => {
  const values = protect(KEY);
  const text = `a ${KEY}.`;
  for (let first = 0; first <= text.length; first++) {
    for (let second = first; second <= text.length; second++) {
      const pieces = [text.slice(0, first), text.slice(first, second), text.slice(second)];
      const released = stream(values, pieces);
      assert.equal(released.join(""), values.redact(text), `cuts ${first}/${second}`);
    }
  }
});

Deno.test("two keys, adjacent or apart, and overlapping prefixes match redact()", () => {
  const other = "sk-canary-ffffeeee9999";
  const values = protect(KEY, other);
  const texts = [
    `${KEY} and ${other}`,
    `${KEY}${other}`,
    `sk-canary-sk-canary-0123456789abcdef`,
    `sk-canary-ffff sk-canary-0123 ${other}`,
    `${KEY.slice(0, 7)}|${KEY.slice(7)}`,
  ];
  for (const text of texts) {
    for (let cut = 0; cut <= text.length; cut++) {
      const released = stream(values, [text.slice(0, cut), text.slice(cut)]);
      assert.equal(released.join(""), values.redact(text), `${text} cut ${cut}`);
      assertNoLeak(released, KEY, `${text} cut ${cut}`);
      assertNoLeak(released, other, `${text} cut ${cut}`);
    }
  }
});

Deno.test("text that cannot start a key is released at once; a possible start waits", () => {
  const redactor = new StreamRedactor(protect(KEY));
  assert.equal(redactor.push("hello world"), "hello world");
  assert.equal(redactor.heldBack, 0);
  assert.equal(redactor.push(" sk-can"), " ");
  assert.equal(redactor.heldBack, "sk-can".length);
  assert.equal(redactor.push("dy!"), "sk-candy!");
  assert.equal(redactor.flush(), "");
});

Deno.test("held-back text never exceeds one window and flush releases the rest", () => {
  const redactor = new StreamRedactor(protect(KEY));
  let released = "";
  for (const char of "sk-canary-0123") {
    released += redactor.push(char);
    assert.ok(redactor.heldBack < 8, `held back ${redactor.heldBack}`);
  }
  assert.equal(released, REDACTED_MARKER);
  assert.equal(redactor.flush(), "");
  const cut = new StreamRedactor(protect(KEY));
  assert.equal(cut.push("ends with sk-cana"), "ends with ");
  assert.equal(cut.flush(), "sk-cana", "a lone 7-character piece is no credential");
});

Deno.test("a short value is held until its end is known and matched as a token", () => {
  const values = protect("tok9");
  assert.deepEqual(stream(values, ["use tok", "9 now"]).join(""), `use ${REDACTED_MARKER} now`);
  assert.deepEqual(stream(values, ["use tok9", "x now"]).join(""), "use tok9x now");
  assert.deepEqual(stream(values, ["use tok9"]).join(""), `use ${REDACTED_MARKER}`);
});

Deno.test("values registered while streaming are protected from the next piece on", () => {
  const values = protect(KEY);
  const redactor = new StreamRedactor(values);
  const token = "a".repeat(8) + "0f".repeat(28);
  values.register(token);
  const released = redactor.push(`token ${token.slice(0, 20)}`) +
    redactor.push(`${token.slice(20)} end`) + redactor.flush();
  assert.equal(released, `token ${REDACTED_MARKER} end`);
});

Deno.test("surrogate pairs around a key survive intact", () => {
  const values = protect(KEY);
  const text = `😀${KEY}😀 𝒳`;
  for (let cut = 0; cut <= text.length; cut++) {
    const released = stream(values, [text.slice(0, cut), text.slice(cut)]).join("");
    assert.equal(released, `😀${REDACTED_MARKER}😀 𝒳`, `cut ${cut}`);
  }
});

Deno.test("without protected values the stream passes through unchanged", () => {
  const released = stream(new ProtectedValues(), ["a", "b", "c"]);
  assert.deepEqual(released, ["a", "b", "c", ""]);
});

Deno.test("random texts of key pieces, split at random, match redact() of the whole", () => {
  const short = "tok9";
  const other = "0f0f1e1e2d2d3c3c";
  const values = protect(KEY, short, other);
  let seed = 12345;
  const random = (below: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % below;
  };
  const parts = [
    KEY,
    KEY.slice(0, 9),
    KEY.slice(5),
    short,
    other,
    other.slice(3, 12),
    " ",
    "-",
    "x",
  ];
  for (let round = 0; round < 500; round++) {
    let text = "";
    for (let count = random(8); count >= 0; count--) text += parts[random(parts.length)];
    const pieces: string[] = [];
    for (let at = 0; at < text.length;) {
      const size = 1 + random(9);
      pieces.push(text.slice(at, at + size));
      at += size;
    }
    assert.equal(stream(values, pieces).join(""), values.redact(text), JSON.stringify(pieces));
  }
});
