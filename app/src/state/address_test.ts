import assert from "node:assert/strict";
import {
  addressedBranch,
  addressOf,
  branchOfAddress,
  documentTitle,
  START_ADDRESS,
  threadOfAddress,
} from "./address.ts";

const ID = "thread_0123456789abcdef0123456789abcdef";
const BRANCH = "branch_fedcba9876543210fedcba9876543210";
const FIRST = "branch_00000000000000000000000000000000";

Deno.test("a branch's address names its thread and the branch", () => {
  const hash = addressOf(ID, BRANCH);
  assert.equal(hash, `#/t/${ID}/b/${BRANCH}`);
  assert.equal(threadOfAddress(hash), ID);
  assert.equal(branchOfAddress(hash), BRANCH);
  assert.equal(branchOfAddress(`${hash}/`), BRANCH, "a trailing slash is the same address");
  assert.equal(branchOfAddress(addressOf(ID)), null, "a thread's own address names no branch");
  assert.equal(addressOf(ID, null), `#/t/${ID}`);
});

Deno.test("only a branch other than the thread's first one is in its address", () => {
  assert.equal(addressedBranch({ defaultBranchId: FIRST, activeBranchId: BRANCH }), BRANCH);
  assert.equal(addressedBranch({ defaultBranchId: FIRST, activeBranchId: FIRST }), null);
  assert.equal(addressedBranch({ defaultBranchId: FIRST }), null, "older events name none");
  assert.equal(addressedBranch(undefined), null, "a thread not listed yet");
  assert.equal(
    addressedBranch({ defaultBranchId: FIRST, activeBranchId: FIRST }, true),
    FIRST,
    "with versions to switch between, the first branch is named too",
  );
  assert.equal(addressedBranch({ defaultBranchId: FIRST }, true), FIRST);
});

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
      `#/t/${ID}/b/`,
      `#/t/${ID}/b/branch_123`,
      `#/t/${ID}/b/${ID}`,
      `#/t/${ID}/x/${BRANCH}`,
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
