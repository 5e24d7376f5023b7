import assert from "node:assert/strict";
import type { Thread } from "@daedalus/client";
import { SEARCH_RESULTS_MAX, searchThreads } from "./thread_search.ts";

function thread(id: string, title: string | null): Thread {
  return {
    id,
    title,
    defaultBranchId: `br_${id}`,
    workspace: null,
    createdAt: "2026-11-29T00:00:00.000Z",
    updatedAt: "2026-11-29T00:00:00.000Z",
    archivedAt: null,
  } as Thread;
}

const threads = [
  thread("thr_1", "Release plan for Q1"),
  thread("thr_2", "Ｂｅｔａ notes"),
  thread("thr_3", null),
  thread("thr_4", "计划 review"),
];

Deno.test("searchThreads: every word must match, in any case and width; order is kept", () => {
  const ids = (query: string) => searchThreads(threads, query, "Untitled").map((t) => t.id);
  assert.deepEqual(ids(""), ["thr_1", "thr_2", "thr_3", "thr_4"]);
  assert.deepEqual(ids("PLAN"), ["thr_1"]);
  assert.deepEqual(ids("q1 release"), ["thr_1"]);
  assert.deepEqual(ids("beta"), ["thr_2"], "full-width letters match (NFKC)");
  assert.deepEqual(ids("untitled"), ["thr_3"]);
  assert.deepEqual(ids("计划"), ["thr_4"]);
  assert.deepEqual(ids("plan missing"), []);
});

Deno.test("searchThreads: at most SEARCH_RESULTS_MAX results", () => {
  const many = Array.from({ length: SEARCH_RESULTS_MAX + 10 }, (_, i) => thread(`thr_${i}`, "x"));
  assert.equal(searchThreads(many, "x", "Untitled").length, SEARCH_RESULTS_MAX);
});
