import assert from "node:assert/strict";
import { createDrafts, MAX_DRAFT_CHARS } from "./drafts.ts";

// sessionStorage is Deno's real in-memory Web Storage implementation.
Deno.test("drafts: each thread keeps its own draft; clear and blank drafts remove it", () => {
  sessionStorage.clear();
  const drafts = createDrafts(sessionStorage);
  drafts.set("thr_a", "first draft");
  drafts.set("thr_b", "second");
  assert.equal(drafts.get("thr_a"), "first draft");
  assert.equal(drafts.get("thr_b"), "second");
  assert.equal(drafts.get("thr_c"), "");
  drafts.clear("thr_a");
  assert.equal(drafts.get("thr_a"), "");
  drafts.set("thr_b", "   \n");
  assert.equal(drafts.get("thr_b"), "");
  assert.equal(sessionStorage.length, 0);
});

Deno.test("drafts: a second instance over the same storage sees them (a reload)", () => {
  sessionStorage.clear();
  createDrafts(sessionStorage).set("thr_a", "survives");
  assert.equal(createDrafts(sessionStorage).get("thr_a"), "survives");
});

Deno.test("drafts: oversized drafts are not persisted and failing storage is harmless", () => {
  sessionStorage.clear();
  const drafts = createDrafts(sessionStorage);
  drafts.set("thr_a", "kept");
  drafts.set("thr_a", "x".repeat(MAX_DRAFT_CHARS + 1));
  assert.equal(drafts.get("thr_a"), "");

  const broken = {
    getItem: () => {
      throw new Error("denied");
    },
    setItem: () => {
      throw new DOMException("full", "QuotaExceededError");
    },
    removeItem: () => {
      throw new Error("denied");
    },
  } as unknown as Storage;
  const unsafe = createDrafts(broken);
  unsafe.set("thr_a", "text");
  unsafe.clear("thr_a");
  assert.equal(unsafe.get("thr_a"), "");
  assert.equal(createDrafts(null).get("thr_a"), "");
});
