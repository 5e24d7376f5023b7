import assert from "node:assert/strict";
import {
  IDLE_SEARCH,
  type MessageHit,
  messageSearcher,
  type MessageSearchState,
  openAtTurn,
  type OpenAtTurnDeps,
  snippetParts,
  turnFocus,
} from "./message_search.ts";
import { fakeCall } from "./_fake_call.ts";

Deno.test("snippetParts splits at the highlights and covers the text exactly once", () => {
  const cases: [string, { start: number; end: number }[], string][] = [
    ["plain text", [], "plain text"],
    ["find the word here", [{ start: 9, end: 13 }], "find the [word] here"],
    ["aa bb aa", [{ start: 0, end: 2 }, { start: 6, end: 8 }], "[aa] bb [aa]"],
    ["whole", [{ start: 0, end: 5 }], "[whole]"],
    ["clipped end", [{ start: 8, end: 99 }], "clipped [end]"],
    ["reversed", [{ start: 5, end: 2 }], "reversed"],
    ["overlap here", [{ start: 0, end: 4 }, { start: 2, end: 7 }], "[over][lap] here"],
    ["past the end", [{ start: 40, end: 50 }], "past the end"],
    ["数据库迁移", [{ start: 3, end: 5 }], "数据库[迁移]"],
  ];
  for (const [snippet, highlights, expected] of cases) {
    const parts = snippetParts(snippet, highlights);
    assert.equal(parts.map((p) => p.text).join(""), snippet, `${snippet}: text changed`);
    assert.ok(parts.every((p) => p.text !== ""), `${snippet}: an empty part`);
    const drawn = parts.map((p) => (p.mark ? `[${p.text}]` : p.text)).join("");
    assert.equal(drawn, expected, `parts of ${JSON.stringify(snippet)}`);
  }
});

/** A thread of `pages` pages whose turn `turn-<n>` is on page `floor(n / 10)`. */
function fakeApp(options: { pages: number; turnPage: number | null; otherBranch?: boolean }) {
  const log: string[] = [];
  let loaded = 0;
  let branch = "branch_main";
  const fake = fakeCall({
    "thread.set_active_branch": (params) => {
      branch = String(params.branchId);
      return {};
    },
  });
  const deps: OpenAtTurnDeps = {
    open: (threadId) => {
      log.push(`open ${threadId} on ${branch}`);
      loaded = 1;
      return Promise.resolve();
    },
    loadOlder: () => {
      log.push(`older ${loaded}`);
      loaded += 1;
      return Promise.resolve();
    },
    hasTurn: () => {
      if (options.turnPage === null) return false;
      const onBranch = options.otherBranch !== true || branch === "branch_fork";
      return onBranch && loaded > options.turnPage;
    },
    hasOlder: () => loaded < options.pages,
    activeBranch: () => branch,
    call: fake.call,
  };
  return { deps, log, calls: fake.calls };
}

const HIT: Pick<MessageHit, "threadId" | "turnId" | "itemId" | "branchId"> = {
  threadId: "thread_a",
  turnId: "turn_old",
  itemId: "item_old",
  branchId: "branch_main",
};

Deno.test("openAtTurn opens the thread, asks the feed for the message and loads older pages until its turn", async () => {
  const newest = fakeApp({ pages: 3, turnPage: 0 });
  assert.equal(await openAtTurn(HIT, newest.deps), true);
  assert.deepEqual(newest.log, ["open thread_a on branch_main"]);
  assert.deepEqual(turnFocus.value, {
    threadId: "thread_a",
    turnId: "turn_old",
    itemId: "item_old",
  });

  const older = fakeApp({ pages: 5, turnPage: 2 });
  assert.equal(await openAtTurn(HIT, older.deps), true);
  assert.deepEqual(older.log, ["open thread_a on branch_main", "older 1", "older 2"]);

  const gone = fakeApp({ pages: 2, turnPage: null });
  assert.equal(await openAtTurn(HIT, gone.deps), false, "a missing turn stops at the last page");
  assert.equal(turnFocus.value, null, "a turn not reached leaves no jump behind");
  assert.deepEqual(gone.log, ["open thread_a on branch_main", "older 1"]);
  assert.deepEqual(gone.calls, [], "the hit's own branch is shown: nothing to switch");
});

Deno.test("openAtTurn shows the hit's branch when the shown one does not hold its turn", async () => {
  const app = fakeApp({ pages: 1, turnPage: 0, otherBranch: true });
  const onFork = { ...HIT, branchId: "branch_fork" };
  assert.equal(await openAtTurn(onFork, app.deps), true);
  assert.deepEqual(app.calls, [{
    method: "thread.set_active_branch",
    params: { threadId: "thread_a", branchId: "branch_fork" },
  }]);
  assert.deepEqual(app.log, ["open thread_a on branch_main", "open thread_a on branch_fork"]);
});

function hit(itemId: string): MessageHit {
  return {
    threadId: "thread_a",
    threadTitle: null,
    branchId: "branch_main",
    turnId: "turn_1",
    itemId,
    role: "user",
    snippet: itemId,
    highlights: [],
    createdAt: "2026-10-01T10:00:00.000Z",
    archived: false,
  };
}

Deno.test("messageSearcher shows loading, then results, and drops an answer typed over", async () => {
  const answers = new Map<string, PromiseWithResolvers<unknown>>();
  const fake = fakeCall({
    "thread.search": (params) => {
      const waiting = Promise.withResolvers<unknown>();
      answers.set(String(params.query), waiting);
      return waiting.promise;
    },
  });
  const states: MessageSearchState[] = [];
  const { search } = messageSearcher((state) => states.push(state), fake.call);
  const slow = search("  old query ");
  const fast = search("new");
  answers.get("new")!.resolve({ results: [hit("item_new")], nextCursor: null });
  await fast;
  answers.get("old query")!.resolve({ results: [hit("item_old")], nextCursor: null });
  await slow;
  assert.deepEqual(fake.calls.map((c) => c.params), [
    { query: "old query", limit: 20 },
    { query: "new", limit: 20 },
  ]);
  assert.deepEqual(states.map((s) => [s.query, s.loading, s.hits.map((h) => h.itemId)]), [
    ["old query", true, []],
    ["new", true, []],
    ["new", false, ["item_new"]],
  ], "the older answer arrived last and must be dropped");

  await search("   ");
  assert.equal(states.at(-1), IDLE_SEARCH, "a blank query resets without a call");
  assert.equal(fake.calls.length, 2);
});

Deno.test("messageSearcher reports a failed call and clips the query to the protocol's limit", async () => {
  const fake = fakeCall({ "thread.search": () => Promise.reject(new Error("offline")) });
  const states: MessageSearchState[] = [];
  await messageSearcher((state) => states.push(state), fake.call).search(`${"x".repeat(250)}`);
  assert.equal(states.at(-1)?.failed, true);
  assert.equal(states.at(-1)?.loading, false);
  assert.equal(String(fake.calls[0]?.params.query).length, 200);
});

Deno.test("more appends the next page of the same query and stops at the last", async () => {
  const pages: Record<string, { results: MessageHit[]; nextCursor: string | null }> = {
    first: { results: [hit("item_1"), hit("item_2")], nextCursor: "c2" },
    c2: { results: [hit("item_3")], nextCursor: null },
  };
  const fake = fakeCall({
    "thread.search": (params) => pages[String(params.cursor ?? "first")],
  });
  let state = IDLE_SEARCH;
  const searcher = messageSearcher((next) => (state = next), fake.call);
  await searcher.more();
  assert.equal(fake.calls.length, 0, "nothing to page before a search");
  await searcher.search("walrus");
  assert.equal(state.nextCursor, "c2");
  await searcher.more();
  assert.deepEqual(state.hits.map((h) => h.itemId), ["item_1", "item_2", "item_3"]);
  assert.equal(state.nextCursor, null);
  await searcher.more();
  assert.deepEqual(fake.calls.map((c) => c.params), [
    { query: "walrus", limit: 20 },
    { query: "walrus", limit: 20, cursor: "c2" },
  ]);
});
