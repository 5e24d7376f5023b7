import assert from "node:assert/strict";
import { addressOf, documentTitle, START_ADDRESS, threadOfAddress } from "./address.ts";

const ID = "thread_0123456789abcdef0123456789abcdef";

Deno.test("a thread's address round-trips; the start screen is #/", () => {
  assert.equal(addressOf(ID), `#/t/${ID}`);
  assert.equal(threadOfAddress(addressOf(ID)), ID);
  assert.equal(threadOfAddress(`#/t/${ID}/`), ID, "a trailing slash is the same address");
  assert.equal(addressOf(null), START_ADDRESS);
  assert.equal(threadOfAddress(START_ADDRESS), null);
});

Deno.test("anything that is not a thread's address opens the start screen", () => {
  for (
    const hash of [
      "",
      "#",
      "#/t/",
      "#/t/thread_123",
      `#/t/${ID}x`,
      `#/t/${ID.toUpperCase()}`,
      `#/t/turn_0123456789abcdef0123456789abcdef`,
      `#/x/${ID}`,
      `#/t/${ID}/../../settings`,
      `#/t/${ID}?q=1`,
    ]
  ) {
    assert.equal(threadOfAddress(hash), null, hash);
  }
});

Deno.test("the document title puts the thread first", () => {
  assert.equal(
    documentTitle("Weekly report", "Daedalus", "Untitled thread"),
    "Weekly report · Daedalus",
  );
  assert.equal(documentTitle(null, "Daedalus", "Untitled thread"), "Untitled thread · Daedalus");
  assert.equal(documentTitle("  ", "Daedalus", "Untitled thread"), "Untitled thread · Daedalus");
  assert.equal(documentTitle(null, "Daedalus", null), "Daedalus", "no thread open");
});
