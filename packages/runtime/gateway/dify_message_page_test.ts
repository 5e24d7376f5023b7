import assert from "node:assert/strict";
import { difyMessagePage, type TurnPage } from "./dify_message_page.ts";

/** A thread of turns `t1…tN` (oldest first); the ones in `empty` have no run. */
function thread(count: number, empty: number[] = []) {
  const turns = Array.from({ length: count }, (_, i) => ({ n: i + 1 }));
  const reads: { cursor: string | null; limit: number }[] = [];
  // turn.list backward: the newest page first, each page oldest first; the cursor is the
  // index (exclusive) where the next older page ends.
  const readTurns = (cursor: string | null, limit: number): Promise<TurnPage<{ n: number }>> => {
    reads.push({ cursor, limit });
    const end = cursor === null ? turns.length : Number(cursor);
    const start = Math.max(0, end - limit);
    return Promise.resolve({
      turns: turns.slice(start, end),
      nextCursor: start > 0 ? String(start) : null,
      hasMore: start > 0,
    });
  };
  const toMessage = (turn: { n: number }) => empty.includes(turn.n) ? null : { id: `m${turn.n}` };
  return { readTurns, toMessage, reads };
}

const ids = (page: Awaited<ReturnType<typeof difyMessagePage>>) =>
  page === "first_not_found" ? page : { ids: page.data.map((m) => m.id), hasMore: page.hasMore };

Deno.test("Dify messages page: newest page first, first_id pages back, has_more as Dify", async () => {
  const cases: {
    name: string;
    count: number;
    empty?: number[];
    limit: number;
    firstId?: string;
    readLimit: number;
    expected: ReturnType<typeof ids>;
  }[] = [
    {
      name: "newest page",
      count: 5,
      limit: 2,
      readLimit: 3,
      expected: { ids: ["m4", "m5"], hasMore: true },
    },
    {
      name: "all fit",
      count: 3,
      limit: 20,
      readLimit: 21,
      expected: { ids: ["m1", "m2", "m3"], hasMore: false },
    },
    {
      name: "exactly the limit",
      count: 3,
      limit: 3,
      readLimit: 4,
      expected: { ids: ["m1", "m2", "m3"], hasMore: false },
    },
    {
      name: "page back",
      count: 5,
      limit: 2,
      firstId: "m4",
      readLimit: 3,
      expected: { ids: ["m2", "m3"], hasMore: true },
    },
    {
      name: "last page back",
      count: 5,
      limit: 2,
      firstId: "m3",
      readLimit: 3,
      expected: { ids: ["m1", "m2"], hasMore: false },
    },
    {
      name: "nothing older",
      count: 5,
      limit: 2,
      firstId: "m1",
      readLimit: 3,
      expected: { ids: [], hasMore: false },
    },
    {
      name: "unknown first_id",
      count: 5,
      limit: 2,
      firstId: "m9",
      readLimit: 3,
      expected: "first_not_found",
    },
    {
      name: "a turn without a run",
      count: 5,
      empty: [4],
      limit: 2,
      readLimit: 3,
      expected: { ids: ["m3", "m5"], hasMore: true },
    },
    {
      name: "an empty thread",
      count: 0,
      limit: 20,
      readLimit: 21,
      expected: { ids: [], hasMore: false },
    },
    {
      name: "across small reads",
      count: 9,
      limit: 4,
      firstId: "m8",
      readLimit: 2,
      expected: { ids: ["m4", "m5", "m6", "m7"], hasMore: true },
    },
  ];
  for (const c of cases) {
    const { readTurns, toMessage } = thread(c.count, c.empty);
    const page = await difyMessagePage({
      readTurns,
      toMessage,
      limit: c.limit,
      firstId: c.firstId,
      readLimit: c.readLimit,
    });
    assert.deepEqual(ids(page), c.expected, c.name);
  }
});

Deno.test("Dify messages page: only the turns the page needs are read", async () => {
  const { readTurns, toMessage, reads } = thread(1000);
  const page = await difyMessagePage({ readTurns, toMessage, limit: 20, readLimit: 21 });
  assert.deepEqual(ids(page), {
    ids: Array.from({ length: 20 }, (_, i) => `m${981 + i}`),
    hasMore: true,
  });
  assert.deepEqual(reads, [{ cursor: null, limit: 21 }], "more than one page of turns was read");
});
