/**
 * Recall latency at 10,000 and 100,000 memories and memory.create throughput.
 * Run: `deno run -A packages/storage/memory/recall_bench.ts` (prints p50/p95/max).
 * Target (seed 000): recall p95 ≤ 10 ms at 100,000 memories.
 *
 * @module
 */
import { MemoryStore } from "./store.ts";
import { recallMemories } from "./recall.ts";

const EN = (
  "user prefers concise answers typescript deno rust python coffee tea morning evening " +
  "project deadline meeting weekly report release review deploy server database backup " +
  "family birthday travel tokyo berlin shanghai vegetarian allergy peanuts dark mode vim " +
  "editor keyboard layout invoice budget quarterly planning hiring interview design api"
).split(" ");
const ZH =
  "回复尽量简洁用中文喜欢咖啡茶早上晚上项目截止会议周报发布评审部署服务器数据库备份家人生日旅行东京柏林上海素食过敏花生深色模式编辑器键盘预算季度规划招聘面试设计接口"
    .split("");

function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function sentence(next: () => number): string {
  const words: string[] = [];
  const english = 6 + Math.floor(next() * 14);
  for (let i = 0; i < english; i += 1) {
    // Zipf-like: low indexes are much more common.
    words.push(EN[Math.floor(EN.length * next() ** 2)]);
  }
  let zh = "";
  const chinese = 4 + Math.floor(next() * 12);
  for (let i = 0; i < chinese; i += 1) zh += ZH[Math.floor(ZH.length * next() ** 2)];
  words.push(zh, `n${Math.floor(next() * 100_000)}`);
  return words.join(" ");
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

const next = random(42);
const dir = await Deno.makeTempDir({ prefix: "daedalus-memory-bench-" });
const store = MemoryStore.open(`${dir}/memory.db`);
try {
  let count = 0;
  const createStarted = performance.now();
  const CREATE_MEASURED = 2_000;
  for (; count < CREATE_MEASURED; count += 1) {
    store.create({
      kind: "fact",
      scope: count % 5 === 0 ? { type: "workspace", key: `ws-${count % 3}` } : {
        type: "global",
        key: null,
      },
      content: sentence(next),
      clientRequestId: `bench-${count}`,
    });
  }
  const createMs = performance.now() - createStarted;
  console.log(
    `memory.create: ${CREATE_MEASURED} creates (one transaction each) in ${
      createMs.toFixed(0)
    } ms = ${(CREATE_MEASURED / createMs * 1000).toFixed(0)}/s`,
  );
  for (const target of [10_000, 100_000]) {
    store.database.transaction(() => {
      for (; count < target; count += 1) {
        store.create({
          kind: "fact",
          scope: count % 5 === 0
            ? { type: "workspace", key: `ws-${count % 3}` }
            : { type: "global", key: null },
          content: sentence(next),
          clientRequestId: `bench-${count}`,
        });
      }
    });
    const queries = [
      "what coffee does the user like",
      "咖啡",
      "周报",
      "茶",
      "deadline for the release",
      "回复尽量简洁",
      "tokyo travel birthday",
      "vegetarian peanuts allergy",
      "数据库备份",
      "dark mode editor",
      `n${Math.floor(next() * 100_000)}`,
      "keyboard layout vim",
    ];
    for (const query of queries) recallMemories(store.database, { query, workspaceKey: "ws-1" });
    const times: number[] = [];
    for (let round = 0; round < 20; round += 1) {
      for (const query of queries) {
        const started = performance.now();
        recallMemories(store.database, { query, workspaceKey: "ws-1" });
        times.push(performance.now() - started);
      }
    }
    times.sort((a, b) => a - b);
    console.log(
      `recall @ ${target}: n=${times.length} p50=${percentile(times, 0.5).toFixed(2)} ms p95=${
        percentile(times, 0.95).toFixed(2)
      } ms max=${times.at(-1)?.toFixed(2)} ms`,
    );
    const slow = queries.map((query) => {
      const started = performance.now();
      recallMemories(store.database, { query, workspaceKey: "ws-1" });
      return `${query}=${(performance.now() - started).toFixed(1)}`;
    });
    console.log(`  per query (ms): ${slow.join(", ")}`);
    // Document counts are cached until the next write; time each query right after one.
    const cold = queries.map((query) => {
      store.create({
        kind: "fact",
        scope: { type: "global", key: null },
        content: sentence(next),
        clientRequestId: `bench-${count++}`,
      });
      const started = performance.now();
      recallMemories(store.database, { query, workspaceKey: "ws-1" });
      return `${query}=${(performance.now() - started).toFixed(1)}`;
    });
    console.log(`  after a write (ms): ${cold.join(", ")}`);
  }
} finally {
  store.close();
  await Deno.remove(dir, { recursive: true });
}
