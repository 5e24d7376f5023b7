/**
 * Message search at 100,000 indexed messages: `thread.search` latency (p50/p95) for
 * common, rare, phrase, Chinese and short (LIKE) queries, and what the index adds to an
 * item completion. Run: `deno run -A packages/storage/state/search_bench.ts` (prints the
 * table; results go in packages/storage/README.md).
 *
 * The corpus is written with plain SQL (1,000 threads × 50 turns × a user message and an
 * answer) and indexed by the migration's fill, which produces what the live projection
 * does (search_index_test.ts); the completions then go through the real store.
 *
 * @module
 */
import { openStateDatabase } from "./database.ts";
import { fillSearchIndex } from "./search_index.ts";
import { likePattern, phrase, searchMessages } from "./reads/message_search.ts";
import { StateStore } from "./store.ts";
import { createThread } from "./thread_writes.ts";
import { startTurn } from "./turn_writes.ts";
import { activateRun, appendItemDelta, completeItem, startItem } from "./run_writes.ts";
import { TEST_RUN_CONFIG } from "./_test_store.ts";

const THREADS = 1_000;
const TURNS_PER_THREAD = 50;
const RUNS_PER_QUERY = 60;
const COMPLETIONS_PER_BLOCK = 100;
const BLOCKS = 12;

const EN = (
  "user prefers concise answers typescript deno rust python coffee tea morning evening " +
  "project deadline meeting weekly report release review deploy server database backup " +
  "family birthday travel tokyo berlin shanghai vegetarian allergy peanuts dark mode vim " +
  "editor keyboard layout invoice budget quarterly planning hiring interview design api " +
  "the a of to and in is it that for on with as this be are was"
).split(" ");
const ZH =
  "回复尽量简洁用中文喜欢咖啡茶早上晚上项目截止会议周报发布评审部署服务器数据库备份家人生日旅行" +
  "东京柏林上海素食过敏花生深色模式编辑器键盘预算季度规划招聘面试设计接口迁移计划的了是在我有他这";

function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
const next = random(7);

/** A message of about `chars` characters: Zipf-like English words, some Chinese, a tag. */
function message(chars: number): string {
  const parts: string[] = [];
  let length = 0;
  while (length < chars) {
    const word = next() < 0.8
      ? EN[Math.floor(EN.length * next() ** 2)]!
      : Array.from({ length: 2 + Math.floor(next() * 6) }, () =>
        ZH[Math.floor(ZH.length * next() ** 2)]).join("");
    parts.push(word);
    length += word.length + 1;
  }
  parts.push(`n${Math.floor(next() * 1_000_000)}`);
  return parts.join(" ");
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

/** Builds the corpus, prints the query table and the completion comparison. */
async function measure(): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "daedalus-search-bench-" });
  const path = `${dir}/state.db`;
  try {
    const db = openStateDatabase(path);
    const builtAt = performance.now();
    let messages = 0;
    let textChars = 0;
    const samples: string[] = [];
    db.transaction(() => {
      const c = db.connection;
      const thread = c.prepare(
        `INSERT INTO threads (id, title, default_branch_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?)`,
      );
      const branch = c.prepare(
        "INSERT INTO branches (id, thread_id, created_at, is_default) VALUES (?, ?, ?, 1)",
      );
      const turn = c.prepare(
        `INSERT INTO turns (id, thread_id, branch_id, ordinal, status, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'completed', ?, ?)`,
      );
      const run = c.prepare(
        `INSERT INTO runs (id, turn_id, provider_id, model_id, status, created_at)
         VALUES (?, ?, 'p', 'm', 'completed', ?)`,
      );
      const item = c.prepare(
        `INSERT INTO items (id, turn_id, run_id, ordinal, kind, role, status, content, created_at,
           updated_at) VALUES (?, ?, ?, ?, 'message', ?, 'completed', ?, ?, ?)`,
      );
      const start = Date.UTC(2026, 0, 1);
      for (let t = 0; t < THREADS; t++) {
        const threadId = `thread_${t.toString(16).padStart(32, "0")}`;
        const branchId = `branch_${t.toString(16).padStart(32, "0")}`;
        const at = new Date(start + t * 60_000).toISOString();
        thread.run(threadId, `Thread ${t}`, branchId, at, at);
        branch.run(branchId, threadId, at);
        for (let n = 1; n <= TURNS_PER_THREAD; n++) {
          const key = (t * TURNS_PER_THREAD + n).toString(16).padStart(32, "0");
          const when = new Date(start + t * 60_000 + n * 1_000).toISOString();
          turn.run(`turn_${key}`, threadId, branchId, n, when, when);
          run.run(`run_${key}`, `turn_${key}`, when);
          const user = message(30 + Math.floor(next() * 170));
          const answer = message(100 + Math.floor(next() * 700));
          item.run(`item_${key}a`, `turn_${key}`, `run_${key}`, 1, "user", user, when, when);
          item.run(`item_${key}b`, `turn_${key}`, `run_${key}`, 2, "assistant", answer, when, when);
          messages += 2;
          textChars += user.length + answer.length;
          if (n === 25 && t % 100 === 0) samples.push(answer);
        }
      }
    });
    const insertedMs = performance.now() - builtAt;
    db.transaction(() => fillSearchIndex(db.connection));
    const indexedMs = performance.now() - builtAt - insertedMs;
    const bytes = (await Deno.stat(path)).size;
    console.log(
      `corpus: ${messages} messages, ${(textChars / 1e6).toFixed(1)} M chars; rows ` +
        `${insertedMs.toFixed(0)} ms, index fill ${indexedMs.toFixed(0)} ms; file ` +
        `${(bytes / 2 ** 20).toFixed(0)} MiB (WAL not counted)`,
    );

    const queries: [string, string][] = [
      ["common word (in most messages)", "the"],
      ["frequent word", "report"],
      ["rare word", "interview design api"],
      ["a message's own tag", samples[3]!.split(" ").at(-1)!],
      ["two-word phrase", "weekly report"],
      ["Chinese, 3 characters", /[\u4e00-\u9fff]{3}/.exec(samples.join(" "))![0]],
      ["Chinese, 2 characters (LIKE scan)", "迁移"],
      ["one character (LIKE scan)", "z"],
      ["no match", "xylophone quartet"],
    ];
    console.log("\n| query | matches | p50 | p95 |\n| --- | --- | --- | --- |");
    const countMatches = (query: string) =>
      [...query].length < 3
        ? db.connection.prepare(
          "SELECT count(*) AS n FROM message_search WHERE content LIKE ? ESCAPE '\\'",
        ).get(likePattern(query))?.n
        : db.connection.prepare(
          "SELECT count(*) AS n FROM message_search WHERE message_search MATCH ?",
        ).get(phrase(query))?.n;
    for (const [name, query] of queries) {
      const times: number[] = [];
      let found = 0;
      for (let i = 0; i < RUNS_PER_QUERY; i++) {
        const began = performance.now();
        found = searchMessages(db, { query, limit: 20 }).results.length;
        times.push(performance.now() - began);
      }
      times.sort((a, b) => a - b);
      console.log(
        `| ${name}: \`${query}\` | ${countMatches(query)} (page ${found}) | ${
          percentile(times, 0.5).toFixed(2)
        } ms | ` +
          `${percentile(times, 0.95).toFixed(2)} ms |`,
      );
    }
    const deep = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const began = performance.now();
      const result: ReturnType<typeof searchMessages> = searchMessages(db, {
        query: "report",
        limit: 20,
        cursor,
      });
      deep.push(performance.now() - began);
      cursor = result.nextCursor;
    }
    console.log(
      `| "report", pages 1–10 by cursor | 20 each | ${
        deep.map((t) => t.toFixed(1)).join(", ")
      } ms |`,
    );
    db.close();

    // Completions through the real store on the same 100,000-message file: an answer (indexed)
    // against a tool call of the same text (not indexed: the index only looks its rowid up).
    const store = StateStore.open(path);
    const { result: created } = await createThread(store, {
      title: "bench",
      workspacesRoot: `${dir}/ws`,
    });
    const { result: turn } = startTurn(store, {
      threadId: created.thread.id,
      content: "go",
      providerId: "p",
      modelId: "m",
      runConfig: TEST_RUN_CONFIG,
    });
    activateRun(store, turn.runId);
    const text = message(600);
    const timeCompletions = (kind: "message" | "tool_call"): number[] => {
      const times: number[] = [];
      for (let i = 0; i < COMPLETIONS_PER_BLOCK; i++) {
        const item = startItem(store, turn.runId, {
          kind,
          role: "assistant",
          status: kind === "message" ? "streaming" : "running",
        }).result;
        if (kind === "message") appendItemDelta(store, item.id, text);
        const began = performance.now();
        // As the runtime does: the writer's own copy of what it streamed (no delta read back).
        const streamed = kind === "message" ? { content: text, reasoning: "" } : undefined;
        completeItem(store, item.id, { status: "completed", content: text, streamed });
        times.push(performance.now() - began);
      }
      return times;
    };
    const withIndex: number[] = [];
    const without: number[] = [];
    timeCompletions("message");
    timeCompletions("tool_call");
    for (let block = 0; block < BLOCKS; block++) {
      // Alternating blocks, so a change of load on the shared machine hits both alike.
      if (block % 2 === 0) {
        withIndex.push(...timeCompletions("message"));
        without.push(...timeCompletions("tool_call"));
      } else {
        without.push(...timeCompletions("tool_call"));
        withIndex.push(...timeCompletions("message"));
      }
    }
    withIndex.sort((a, b) => a - b);
    without.sort((a, b) => a - b);
    const p50With = percentile(withIndex, 0.5);
    const p50Without = percentile(without, 0.5);
    console.log(
      `\nitem completion (${text.length} chars, ${withIndex.length} each): indexed answer ` +
        `p50 ${(p50With * 1000).toFixed(0)} µs / p95 ${
          (percentile(withIndex, 0.95) * 1000).toFixed(0)
        } µs; ` +
        `unindexed tool call p50 ${(p50Without * 1000).toFixed(0)} µs / p95 ` +
        `${(percentile(without, 0.95) * 1000).toFixed(0)} µs; ratio ${
          (p50With / p50Without).toFixed(2)
        }×`,
    );
    store.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

let measured: Promise<void> | null = null;

Deno.bench({
  name: "search: 100,000 messages, p50/p95 per query and completion cost (printed above)",
  n: 1,
  warmup: 0,
  fn: async () => {
    measured ??= measure();
    await measured;
  },
});
