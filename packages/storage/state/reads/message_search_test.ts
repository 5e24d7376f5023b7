import assert from "node:assert/strict";
import { likePattern, phrase, searchMessages } from "./message_search.ts";
import { ReadError } from "./errors.ts";
import { openTestStore, seedThread, type TestStore } from "../_test_store.ts";
import { exchange } from "../_search_fixture.ts";
import { SEARCH_MAX_DEPTH } from "./limits.ts";

function readErrorCode(code: string, field?: string): (error: unknown) => boolean {
  return (error) => {
    assert.ok(error instanceof ReadError, `expected ReadError ${code}, got ${error}`);
    assert.equal(error.code, code, `expected ${code}, got ${error.code}: ${error.message}`);
    if (field !== undefined) assert.equal(error.field, field);
    return true;
  };
}

/** The answers' texts found for a query, in result order. */
function texts(fixture: TestStore, query: string): string[] {
  return searchMessages(fixture.store.db, { query }).results.map((r) =>
    r.highlights.length > 0 ? r.snippet : `(unmarked) ${r.snippet}`
  );
}

Deno.test("phrase and likePattern make the user's text literal", () => {
  const phrases: [string, string][] = [
    ["plain words", '"plain words"'],
    ['say "hi"', '"say ""hi"""'],
    ["a* OR b NEAR(c d) -e f:g ^h", '"a* OR b NEAR(c d) -e f:g ^h"'],
  ];
  for (const [query, expected] of phrases) assert.equal(phrase(query), expected);
  const likes: [string, string][] = [
    ["ab", "%ab%"],
    ["5%", "%5\\%%"],
    ["a_", "%a\\_%"],
    ["\\x", "%\\\\x%"],
  ];
  for (const [query, expected] of likes) assert.equal(likePattern(query), expected);
});

Deno.test("search finds messages across threads with the thread, turn and a marked snippet", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const a = await seedThread(fixture, { title: "Trip planning" });
  const b = await seedThread(fixture, { title: "Cooking" });
  const trip = exchange(
    store,
    a.threadId,
    "Book a train to Kyoto",
    "Trains to Kyoto leave hourly.",
  );
  exchange(store, b.threadId, "Miso soup recipe", "Dashi first, then miso.");
  const page = searchMessages(store.db, { query: "kyoto" });
  assert.equal(page.nextCursor, null);
  assert.deepEqual(
    new Set(page.results.map((r) => r.itemId)),
    new Set([trip.userItemId, trip.assistantItemId]),
  );
  const user = page.results.find((r) => r.role === "user")!;
  assert.equal(user.threadId, a.threadId);
  assert.equal(user.threadTitle, "Trip planning");
  assert.equal(user.turnId, trip.turnId);
  assert.equal(user.branchId, trip.branchId);
  assert.equal(user.archived, false);
  assert.equal(user.snippet, "Book a train to Kyoto");
  assert.deepEqual(user.highlights, [{ start: 16, end: 21 }]);
  assert.match(user.createdAt, /^\d{4}-\d\d-\d\dT/);
});

Deno.test("results rank by bm25, then newest first", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  exchange(store, threadId, "zebra once in a long sentence about many other unrelated things", "");
  exchange(store, threadId, "zebra zebra zebra", "");
  exchange(store, threadId, "a zebra here", "");
  exchange(store, threadId, "a zebra here", "");
  const results = searchMessages(store.db, { query: "zebra" }).results;
  assert.equal(results[0]?.snippet, "zebra zebra zebra", "the densest match comes first");
  assert.equal(results.at(-1)?.snippet.startsWith("zebra once"), true, "the diluted one is last");
  const ties = results.filter((r) => r.snippet === "a zebra here");
  assert.equal(ties.length, 2);
  assert.ok(ties[0]!.createdAt > ties[1]!.createdAt, "equal scores: the newer message first");
});

Deno.test("FTS syntax in the query is matched as text and never breaks the search", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  const said = [
    'He said "hello world" twice',
    "glob pattern src/*.ts matches",
    "key: value pairs",
    "call f(x) then",
    "well-known fact",
    "NEAR the station",
    "cats AND dogs OR birds",
    "caret ^start",
    "100% sure about a_b",
  ];
  for (const text of said) exchange(store, threadId, text, "");
  const cases: [string, string[]][] = [
    ['"hello world"', ['He said ["hello world"] twice']],
    ['"hello', ['He said ["hello] world" twice']],
    ["*.ts", ["glob pattern src/[*.ts] matches"]],
    ["key:", ["[key:] value pairs"]],
    ["f(x)", ["call [f(x)] then"]],
    ["(x", ["call f[(x]) then"]],
    ["well-known", ["[well-known] fact"]],
    ["-known", ["well[-known] fact"]],
    ["NEAR", ["[NEAR] the station"]],
    ["NEAR(cats dogs)", []],
    ["AND dogs OR", ["cats [AND dogs OR] birds"]],
    ["^start", ["caret [^start]"]],
    ["%", ["100[%] sure about a_b"]],
    ["_", ["100% sure about a[_]b"]],
    ["0%", ["10[0%] sure about a_b"]],
    ['"', ['He said ["]hello world["] twice']],
  ];
  for (const [query, expected] of cases) {
    const found = searchMessages(store.db, { query }).results.map((r) => {
      let text = r.snippet;
      for (const h of [...r.highlights].reverse()) {
        text = `${text.slice(0, h.start)}[${text.slice(h.start, h.end)}]${text.slice(h.end)}`;
      }
      return text;
    });
    assert.deepEqual(found, expected, `query ${JSON.stringify(query)}`);
  }
});

Deno.test("Chinese text is found by substrings of any length", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture, { title: "数据" });
  exchange(store, threadId, "请帮我制定数据库迁移计划", "好的，迁移分三步进行");
  exchange(store, threadId, "今天天气很好", "是的");
  const cases: [string, string[]][] = [
    ["数据库迁移", ["请帮我制定[数据库迁移]计划"]],
    ["迁移", ["好的，[迁移]分三步进行", "请帮我制定数据库[迁移]计划"]],
    ["天", ["[天][天]气很好".replace("[天][天]", "今[天][天]")]],
    ["不存在的词", []],
  ];
  for (const [query, expected] of cases) {
    const found = searchMessages(store.db, { query }).results.map((r) => {
      let text = r.snippet;
      for (const h of [...r.highlights].reverse()) {
        text = `${text.slice(0, h.start)}[${text.slice(h.start, h.end)}]${text.slice(h.end)}`;
      }
      return text;
    });
    assert.deepEqual(found, expected, `query ${query}`);
  }
});

Deno.test("short queries match anywhere, newest first, case-insensitively", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  exchange(store, threadId, "Go is fun", "");
  exchange(store, threadId, "cargo build", "");
  exchange(store, threadId, "nothing", "");
  assert.deepEqual(texts(fixture, "GO"), ["cargo build", "Go is fun"]);
  assert.deepEqual(texts(fixture, "x"), []);
});

Deno.test("pages follow the cursor without repeats and the cursor is bound to its query", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  for (let i = 0; i < 23; i++) exchange(store, threadId, `walrus note ${i}`, "");
  const seen: string[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  do {
    const page: ReturnType<typeof searchMessages> = searchMessages(store.db, {
      query: "walrus",
      limit: 10,
      cursor,
    });
    sizes.push(page.results.length);
    seen.push(...page.results.map((r) => r.itemId));
    cursor = page.nextCursor;
  } while (cursor !== null);
  assert.deepEqual(sizes, [10, 10, 3]);
  assert.equal(new Set(seen).size, 23, "no result is repeated or lost across pages");
  assert.equal(searchMessages(store.db, { query: "walrus" }).results.length, 20, "default 20");

  const first = searchMessages(store.db, { query: "walrus", limit: 5 });
  assert.ok(first.nextCursor !== null);
  assert.throws(
    () => searchMessages(store.db, { query: "walrus note", cursor: first.nextCursor }),
    readErrorCode("invalid_cursor", "cursor"),
  );
  assert.throws(
    () => searchMessages(store.db, { query: "walrus", cursor: "not a cursor!" }),
    readErrorCode("invalid_cursor", "cursor"),
  );
  const history = btoa(JSON.stringify({ v: 1, s: "active", u: "x", i: "y" })).replace(/=+$/, "");
  assert.throws(
    () => searchMessages(store.db, { query: "walrus", cursor: history }),
    readErrorCode("invalid_cursor", "cursor"),
  );
  // A trimmed query is the same query, so its cursor still fits.
  const next = searchMessages(store.db, { query: "  walrus ", limit: 5, cursor: first.nextCursor });
  assert.equal(next.results.length, 5);
});

Deno.test("paging stops at the deepest result a search returns", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  exchange(store, threadId, "deep sea", "deep water");
  const json = JSON.stringify({ v: 1, s: "search", q: "", o: SEARCH_MAX_DEPTH });
  // The cursor's query key is checked first: build one for "deep" by paging.
  const page = searchMessages(store.db, { query: "deep", limit: 1 });
  const key = JSON.parse(atob(page.nextCursor!.replaceAll("-", "+").replaceAll("_", "/"))).q;
  const deep = btoa(json.replace('"q":""', `"q":"${key}"`)).replace(/=+$/, "")
    .replaceAll("+", "-").replaceAll("/", "_");
  assert.deepEqual(searchMessages(store.db, { query: "deep", cursor: deep }), {
    results: [],
    nextCursor: null,
  });
});

Deno.test("bad queries and limits are invalid_params naming the field", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const cases: [string, Parameters<typeof searchMessages>[1], string][] = [
    ["empty query", { query: "" }, "query"],
    ["blank query", { query: " \n\t " }, "query"],
    ["201 characters", { query: "a".repeat(201) }, "query"],
    ["not a string", { query: 42 as unknown as string }, "query"],
    ["limit 0", { query: "abc", limit: 0 }, "limit"],
    ["limit 51", { query: "abc", limit: 51 }, "limit"],
    ["fractional limit", { query: "abc", limit: 1.5 }, "limit"],
  ];
  for (const [name, options, field] of cases) {
    assert.throws(
      () => searchMessages(store.db, options),
      readErrorCode("invalid_params", field),
      name,
    );
  }
  assert.deepEqual(searchMessages(store.db, { query: "a".repeat(200), limit: 50 }).results, []);
  assert.deepEqual(
    searchMessages(store.db, { query: ` ${"b".repeat(200)} `, limit: 1 }).results,
    [],
  );
});
