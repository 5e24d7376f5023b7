import assert from "node:assert/strict";
import { appendMention } from "./draft_mentions.ts";

Deno.test("appendMention separates with one space and leaves room to type", () => {
  assert.equal(appendMention("", "`a.ts`"), "`a.ts` ");
  assert.equal(appendMention("look at", "`a.ts`"), "look at `a.ts` ");
  assert.equal(appendMention("look at ", "`a.ts`"), "look at `a.ts` ");
  assert.equal(appendMention("first\n", "`a.ts`"), "first\n`a.ts` ");
});
