import assert from "node:assert/strict";
import type { Thread } from "@daedalus/client";
import { groupThreads } from "./thread_groups.ts";

function thread(id: string, workspace: Thread["workspace"]): Thread {
  return {
    id,
    title: id,
    workspace,
    createdAt: "2026-11-30T00:00:00.000Z",
    updatedAt: "2026-11-30T00:00:00.000Z",
    archivedAt: null,
  } as Thread;
}

const managed = (id: string) => ({ id, name: "m", kind: "managed" as const, rootUri: `/m/${id}` });
const project = (id: string, name: string, slash = "") => ({
  id,
  name,
  kind: "project" as const,
  rootUri: `/src/${name}${slash}`,
});

Deno.test("groupThreads keeps managed threads apart and groups projects in recency order", () => {
  const list = [
    thread("thr_a", project("wsp_api", "api")),
    thread("thr_b", managed("wsp_1")),
    thread("thr_c", project("wsp_web", "web")),
    // Every thread has its own workspace record; the folder groups them.
    thread("thr_d", project("wsp_api2", "api", "/")),
    thread("thr_e", null),
  ];
  const groups = groupThreads(list);
  assert.deepEqual(groups.threads.map((t) => t.id), ["thr_b", "thr_e"]);
  assert.deepEqual(groups.projects.map((p) => [p.name, p.threads.map((t) => t.id)]), [
    ["api", ["thr_a", "thr_d"]],
    ["web", ["thr_c"]],
  ]);
  assert.equal(groups.projects[0]?.rootUri, "/src/api");
});

Deno.test("groupThreads of nothing is empty", () => {
  assert.deepEqual(groupThreads([]), { threads: [], projects: [] });
});
