import assert from "node:assert/strict";
import { openStateDatabase, type StateDatabase } from "./database.ts";
import { EXPORT_PAGE_ROWS } from "../limits.ts";
import {
  exportThreadChunks,
  exportThreadJsonl,
  exportThreadMarkdown,
  JournalExportError,
  parseExportedSegment,
  verifyExportedSegment,
} from "./journal_export.ts";
import { insertEvent } from "./reads/_fixtures.ts";
import { homePaths } from "../home.ts";
import { storageExport, storageExportTo, storageVerify } from "../maintenance.ts";

function message(id: string, role: string, status: string, content: string) {
  return {
    id,
    turnId: "trn_1",
    runId: "run_1",
    ordinal: 1,
    kind: "message",
    role,
    status,
    content,
    data: {},
    createdAt: "t",
    updatedAt: "t",
  };
}

function conversation(db: StateDatabase): void {
  const scope = { threadId: "thr_a", branchId: "brn_a", turnId: "trn_1", runId: "run_1" };
  insertEvent(db, { type: "thread.created", threadId: "thr_a", payload: { title: "A" } });
  insertEvent(db, { type: "thread.created", threadId: "thr_b", payload: { title: "B" } });
  insertEvent(db, {
    type: "item.started",
    ...scope,
    itemId: "itm_1",
    payload: { item: message("itm_1", "user", "completed", "写一篇周报\nplease") },
  });
  insertEvent(db, { type: "thread.updated", threadId: "thr_b", payload: { title: "B2" } });
  insertEvent(db, {
    type: "item.started",
    ...scope,
    itemId: "itm_2",
    payload: { item: message("itm_2", "assistant", "streaming", "") },
  });
  insertEvent(db, { type: "item.delta", ...scope, itemId: "itm_2", payload: { delta: "Done" } });
  insertEvent(db, {
    type: "item.completed",
    ...scope,
    itemId: "itm_2",
    payload: { item: message("itm_2", "assistant", "completed", "Done.") },
  });
}

Deno.test("a JSON lines export round-trips and verifies; an edited one does not", () => {
  const db = openStateDatabase(":memory:");
  try {
    conversation(db);
    const text = exportThreadJsonl(db.connection, "thr_a");
    const lines = text.trimEnd().split("\n");
    assert.equal(lines.length, 5, "only thread thr_a's events");
    assert.deepEqual(parseExportedSegment(text).map((r) => r.seq), [1, 3, 5, 6, 7]);
    const result = verifyExportedSegment(text);
    assert.equal(result.ok, true, `export must verify: ${result.failure?.message}`);
    const head = db.connection.prepare("SELECT hash FROM events WHERE seq = 7").get();
    assert.deepEqual(result.head, { seq: 7, hash: head?.hash });
    const edited = text.replace("Done.", "Done!");
    assert.deepEqual(verifyExportedSegment(edited).failure?.reason, "payload_altered");
    assert.deepEqual(verifyExportedSegment(edited).failure?.seq, 7);
    const reordered = [lines[0], lines[2], lines[1], lines[3], lines[4]].join("\n");
    assert.deepEqual(verifyExportedSegment(reordered).failure?.reason, "row_moved");
    // Seq 5 and 6 were adjacent in the journal, so 6 must chain from 5.
    const relinked = lines.map((line, i) =>
      i === 3 ? JSON.stringify({ ...JSON.parse(line), prevHash: "f".repeat(64) }) : line
    ).join("\n");
    assert.deepEqual(verifyExportedSegment(relinked).failure?.reason, "row_altered");
    // What a thread segment alone cannot show: a dropped row looks like another thread's
    // row between the two left (seq 5, 7); the journal (storage verify) shows it.
    const dropped = lines.filter((_, i) => i !== 3).join("\n");
    assert.equal(verifyExportedSegment(dropped).ok, true);
  } finally {
    db.close();
  }
});

const BAD_SEGMENTS: [string, string, string][] = [
  ["not JSON", "{", "line 1 is not JSON"],
  ["not an object", "[1]\n", "line 1 is not an exported event"],
  ["seq missing", JSON.stringify({ type: "x" }), "line 1 is not an exported event"],
  ["an empty line in the middle", "\n\n", "line 1 is not JSON"],
];

for (const [name, text, message] of BAD_SEGMENTS) {
  Deno.test(`a segment with ${name} is export_invalid`, () => {
    assert.throws(
      () => verifyExportedSegment(text),
      (error: unknown) =>
        error instanceof JournalExportError && error.code === "export_invalid" &&
        error.message === message,
    );
  });
}

Deno.test("the Markdown transcript shows the messages and the head", () => {
  const db = openStateDatabase(":memory:");
  try {
    conversation(db);
    const markdown = exportThreadMarkdown(db.connection, "thr_a");
    assert.ok(markdown.startsWith("# Thread thr_a\n"), markdown);
    assert.match(
      markdown,
      /### You · [^\n]+\n\n写一篇周报\nplease\n/,
      "the user message as written",
    );
    assert.match(
      markdown,
      /### Assistant · [^\n]+\n\nDone\./,
      "the completed text, not the deltas",
    );
    assert.ok(!markdown.includes("item.delta"), "deltas are folded into the completed item");
    assert.ok(!markdown.includes("thread.created"), "lifecycle events stay in the JSON export");
    assert.ok(!markdown.includes("B2"), "another thread's events are left out");
    assert.match(markdown, /Last event: seq 7, hash `[0-9a-f]{64}`/);
  } finally {
    db.close();
  }
});

Deno.test("exporting a thread without events is thread_not_found", () => {
  const db = openStateDatabase(":memory:");
  try {
    for (const run of [exportThreadJsonl, exportThreadMarkdown]) {
      assert.throws(
        () => run(db.connection, "thr_none"),
        (error: unknown) =>
          error instanceof JournalExportError && error.code === "thread_not_found",
      );
    }
  } finally {
    db.close();
  }
});

Deno.test("storage verify and export work on a runtime home", async () => {
  const home = await Deno.makeTempDir({ prefix: "daedalus-verify-" });
  try {
    const db = openStateDatabase(homePaths(home).stateDb);
    conversation(db);
    db.close();
    const report = await storageVerify(home);
    assert.equal(report.ok, true);
    assert.equal(report.operation, "storage.verify");
    assert.equal((report.head as { seq: number }).seq, 7);
    const wrong = await storageVerify(home, { seq: 7, hash: "0".repeat(64) });
    assert.equal(wrong.ok, false);
    assert.equal((wrong.failure as { reason: string }).reason, "head_mismatch");
    const text = await storageExport(home, "thr_a", "jsonl");
    assert.equal(verifyExportedSegment(text).ok, true);
    assert.ok((await storageExport(home, "thr_a", "markdown")).includes("\n\nDone."));
    const chunks: string[] = [];
    await storageExportTo(home, "thr_a", "markdown", (chunk) => {
      chunks.push(chunk);
      return Promise.resolve();
    });
    assert.ok(chunks.length >= 3, "header, a page, the head line: written as they come");
    assert.equal(chunks.join(""), await storageExport(home, "thr_a", "markdown"));
    const written: string[] = [];
    await assert.rejects(
      storageExportTo(home, "thr_none", "jsonl", (chunk) => {
        written.push(chunk);
        return Promise.resolve();
      }),
      (error: unknown) => error instanceof JournalExportError && error.code === "thread_not_found",
    );
    assert.deepEqual(written, [], "nothing is written for an unknown thread");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("an export is read in pages, one read each, and ends at the head it started with", () => {
  const db = openStateDatabase(":memory:");
  try {
    const rows = EXPORT_PAGE_ROWS * 2 + 7;
    for (let i = 0; i < rows; i++) {
      insertEvent(db, { type: "thread.updated", threadId: "thr_p", payload: { title: `t${i}` } });
      // Other threads' rows between, so a page boundary is not a seq boundary.
      if (i % 3 === 0) insertEvent(db, { type: "thread.updated", threadId: "thr_q", payload: {} });
    }
    let reads = 0;
    const read = <T>(fn: (connection: typeof db.connection) => T): T => {
      reads++;
      return fn(db.connection);
    };
    const chunks = exportThreadChunks(read, "thr_p", "jsonl");
    const first = chunks.next();
    assert.equal(first.done, false);
    // Appended after the export started: not part of it.
    insertEvent(db, { type: "thread.updated", threadId: "thr_p", payload: { title: "late" } });
    const text = [first.value, ...chunks].join("");
    const lines = text.trimEnd().split("\n");
    assert.equal(lines.length, rows, "every row up to the starting head, none after");
    assert.equal(reads, 1 + 3 + 1, "the head, three pages, the empty page that ends it");
    const verified = verifyExportedSegment(text);
    assert.equal(verified.ok, true, verified.failure?.message);
    assert.ok(!text.includes('"late"'), "the row appended later is left out");
  } finally {
    db.close();
  }
});

Deno.test("an export of a thread without events fails on the first chunk with thread_not_found", () => {
  const db = openStateDatabase(":memory:");
  try {
    for (const format of ["jsonl", "markdown"] as const) {
      const chunks = exportThreadChunks((fn) => fn(db.connection), "thr_none", format);
      assert.throws(
        () => chunks.next(),
        (error: unknown) =>
          error instanceof JournalExportError && error.code === "thread_not_found",
        format,
      );
    }
  } finally {
    db.close();
  }
});
