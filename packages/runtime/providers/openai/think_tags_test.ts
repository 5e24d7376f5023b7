import assert from "node:assert/strict";
import { stripThinkBlock, ThinkTagSplitter } from "./think_tags.ts";

/** Feeds the pieces and joins what comes out, as a reader of the stream sees it. */
function split(pieces: string[]): { reasoning: string; text: string } {
  const splitter = new ThinkTagSplitter();
  const out = { reasoning: "", text: "" };
  for (const piece of [...pieces.map((p) => splitter.push(p)), splitter.end()]) {
    out.reasoning += piece.reasoning;
    out.text += piece.text;
  }
  return out;
}

Deno.test("a leading <think> block becomes reasoning, however the tags are cut", () => {
  const whole = "<think>\nThe user greets.\n</think>\n\nHello!";
  const expected = { reasoning: "The user greets.\n", text: "Hello!" };
  assert.deepEqual(split([whole]), expected);
  for (let cut = 1; cut < whole.length; cut++) {
    assert.deepEqual(split([whole.slice(0, cut), whole.slice(cut)]), expected, `cut at ${cut}`);
  }
  assert.deepEqual(split([...whole]), expected, "one character at a time");
});

Deno.test("text without a leading block is passed on untouched, at once", () => {
  const splitter = new ThinkTagSplitter();
  assert.deepEqual(splitter.push("Hello"), { reasoning: "", text: "Hello" });
  assert.deepEqual(splitter.push(" <think>not a block</think>"), {
    reasoning: "",
    text: " <think>not a block</think>",
  });
  assert.deepEqual(split(["<b>bold</b>"]), { reasoning: "", text: "<b>bold</b>" });
  assert.deepEqual(split(["<th", "ree>"]), { reasoning: "", text: "<three>" });
});

Deno.test("what could still be a tag is held back, and released at the end", () => {
  const splitter = new ThinkTagSplitter();
  assert.deepEqual(splitter.push("  <thi"), { reasoning: "", text: "" });
  assert.deepEqual(splitter.end(), { reasoning: "", text: "  <thi" });
  assert.deepEqual(split(["<think>cut in the mid"]), { reasoning: "cut in the mid", text: "" });
  assert.deepEqual(split(["<think>a</thi"]), { reasoning: "a</thi", text: "" });
});

Deno.test("stripThinkBlock leaves the answer after the block", () => {
  assert.equal(
    stripThinkBlock("<think>Which title?</think>\nWeather in Paris"),
    "Weather in Paris",
  );
  assert.equal(stripThinkBlock("Weather in Paris"), "Weather in Paris");
  assert.equal(stripThinkBlock("<think>never closed"), "");
  // the opening tag was in the prompt: only the closing one was streamed
  assert.equal(stripThinkBlock("Pick a title.\n</think>\n\nParis weather"), "Paris weather");
  assert.equal(stripThinkBlock("Use <think> and </think> tags"), "Use <think> and </think> tags");
});
