import assert from "node:assert/strict";
import { distinctMemoryTokens, memoryIndexText, tokenizeMemoryText } from "./tokenize.ts";

Deno.test("Chinese text yields single characters and bigrams", () => {
  assert.deepEqual(tokenizeMemoryText("喜欢咖啡"), [
    "喜",
    "欢",
    "咖",
    "啡",
    "喜欢",
    "欢咖",
    "咖啡",
  ]);
});

Deno.test("a one-character Han run is one token and punctuation separates runs", () => {
  assert.deepEqual(tokenizeMemoryText("茶，水"), ["茶", "水"]);
});

Deno.test("English is split into case-folded words and numbers", () => {
  assert.deepEqual(tokenizeMemoryText("Prefers TypeScript 5.4, not v3!"), [
    "prefers",
    "typescript",
    "5",
    "4",
    "not",
    "v3",
  ]);
});

Deno.test("NFKC folds full-width letters and digits before case folding", () => {
  assert.deepEqual(tokenizeMemoryText("ＤＥＮＯ２"), ["deno2"]);
});

Deno.test("mixed scripts switch at the Han boundary", () => {
  assert.deepEqual(tokenizeMemoryText("用Deno写代码"), [
    "用",
    "deno",
    "写",
    "代",
    "码",
    "写代",
    "代码",
  ]);
});

Deno.test("distinct tokens keep first occurrence order; index text joins with spaces", () => {
  assert.deepEqual(distinctMemoryTokens("tea Tea TEA coffee"), ["tea", "coffee"]);
  assert.equal(memoryIndexText("回复 Short"), "回 复 回复 short");
  assert.deepEqual(tokenizeMemoryText("  …—  "), []);
});
