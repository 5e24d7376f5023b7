import assert from "node:assert/strict";
import { omittedMarker, ProcessLog } from "./process_log.ts";
import { PROCESS_LOG_WINDOW_BYTES } from "./limits.ts";

const THREAD = "thread_" + "a".repeat(32);
const PROCESS = "process_" + "b".repeat(32);

async function withLog(fn: (log: ProcessLog, root: string) => Promise<void>) {
  const root = await Deno.makeTempDir();
  const log = await ProcessLog.open({ root, threadId: THREAD, processId: PROCESS });
  try {
    await fn(log, root);
  } finally {
    await log.close();
    await Deno.remove(root, { recursive: true });
  }
}

/** `count` bytes of `fill`, with a recognizable prefix. */
function chunk(prefix: string, count: number, fill = "x"): Uint8Array {
  const fillBytes = new TextEncoder().encode(fill).length;
  const repeats = Math.floor((count - prefix.length) / fillBytes);
  const text = prefix + fill.repeat(repeats);
  return new TextEncoder().encode(text + "x".repeat(count - new TextEncoder().encode(text).length));
}

Deno.test("process log rejects ids that are not safe path segments", async () => {
  const root = await Deno.makeTempDir();
  for (const [threadId, processId] of [["../etc", PROCESS], [THREAD, "process_../x"]]) {
    await assert.rejects(() => ProcessLog.open({ root, threadId, processId }), {
      code: "invalid_id",
    });
  }
  await Deno.remove(root, { recursive: true });
});

Deno.test("process log pages small output and reports the end", () =>
  withLog(async (log) => {
    await log.append(new TextEncoder().encode("hello\nworld\n"));
    const page = await log.readPage(0, 6);
    assert.deepEqual(page, {
      output: "hello\n",
      cursor: 0,
      nextCursor: 6,
      hasMore: true,
      truncated: false,
    });
    const rest = await log.readPage(page.nextCursor);
    assert.deepEqual(rest.output, "world\n");
    assert.deepEqual(rest.hasMore, false);
  }));

Deno.test("process log cuts pages on UTF-8 boundaries", () =>
  withLog(async (log) => {
    await log.append(new TextEncoder().encode("aé€😀b"));
    const seen: string[] = [];
    let cursor = 0;
    for (let guard = 0; guard < 20; guard++) {
      const page = await log.readPage(cursor, 5);
      seen.push(page.output);
      cursor = page.nextCursor;
      if (!page.hasMore) break;
    }
    assert.deepEqual(seen.join(""), "aé€😀b");
    assert.deepEqual(seen.every((part) => !part.includes("\ufffd")), true, `split: ${seen}`);
    const partial = await log.readPage(2, 4); // cursor inside "é": skips the stray byte
    assert.deepEqual(partial.output.includes("\ufffd"), false);
  }));

Deno.test("process log holds back a character whose bytes have not all arrived", () =>
  withLog(async (log) => {
    const euro = new TextEncoder().encode("€");
    await log.append(new Uint8Array([0x41, euro[0]]));
    const page = await log.readPage(0);
    assert.deepEqual(page.output, "A");
    assert.deepEqual(page.nextCursor, 1);
    await log.append(euro.subarray(1));
    assert.deepEqual((await log.readPage(1)).output, "€");
  }));

Deno.test("process log folds over the window with stable cursors", () =>
  withLog(async (log, _root) => {
    const piece = 64 * 1024;
    const pieces = 24; // 1.5 MiB in total
    for (let i = 0; i < pieces; i++) {
      await log.append(chunk(`[piece ${i}]`, piece, "é"));
    }
    const total = piece * pieces;
    assert.deepEqual(log.totalBytes, total);
    const size = (await Deno.stat(log.paths.log)).size;
    assert.deepEqual(size <= PROCESS_LOG_WINDOW_BYTES, true, `file is ${size} bytes`);

    const head = await log.readPage(0, 32);
    assert.deepEqual(head.output.startsWith("[piece 0]"), true, head.output);

    const { headBytes, tailStart } = log.layout;
    const omitted = await log.readPage(headBytes + 10);
    assert.deepEqual(omitted.output, omittedMarker(tailStart - headBytes));
    assert.deepEqual(omitted.truncated, true);
    assert.deepEqual(omitted.nextCursor, tailStart);

    const lastPieceAt = piece * (pieces - 1);
    const last = await log.readPage(lastPieceAt, 16);
    assert.deepEqual(last.output.startsWith(`[piece ${pieces - 1}]`), true, last.output);

    // The layout survives reopening (a runtime restart) and the same cursor reads the same bytes.
    await log.close();
    const reopened = await ProcessLog.open({ root: _root, threadId: THREAD, processId: PROCESS });
    try {
      assert.deepEqual(reopened.totalBytes, total);
      assert.deepEqual((await reopened.readPage(lastPieceAt, 16)).output, last.output);
      assert.deepEqual((await reopened.readPage(0, 32)).output, head.output);
    } finally {
      await reopened.close();
    }
  }));

Deno.test("process log folds output a child appended to the file itself", () =>
  withLog(async (log) => {
    const big = chunk("[start]", 3 * 1024 * 1024);
    const last = new TextEncoder().encode("[the end]");
    await Deno.writeFile(log.paths.log, big, { append: true });
    await Deno.writeFile(log.paths.log, last, { append: true });
    const total = await log.sync();
    assert.deepEqual(total, big.length + last.length);
    const tail = await log.readPage(total - last.length);
    assert.deepEqual(tail.output, "[the end]");
    assert.deepEqual((await log.readPage(0, 7)).output, "[start]");
    assert.deepEqual((await Deno.stat(log.paths.log)).size <= PROCESS_LOG_WINDOW_BYTES, true);
  }));

Deno.test("output masking rewrites credentials in place, also split over two looks", async () => {
  const root = await Deno.makeTempDir();
  const secret = new TextEncoder().encode("SECRET-0123456789");
  // A masker like the runtime's: every occurrence becomes the same number of `#`.
  const maskOutput = (bytes: Uint8Array) => {
    const text = new TextDecoder("windows-1252").decode(bytes);
    const plain = new TextDecoder().decode(secret);
    if (!text.includes(plain)) return null;
    return new TextEncoder().encode(text.replaceAll(plain, "#".repeat(plain.length)));
  };
  const log = await ProcessLog.open({ root, threadId: THREAD, processId: PROCESS, maskOutput });
  try {
    const file = await Deno.open(log.paths.log, { append: true });
    // The child writes to its log itself; the runtime sees it on its next look.
    await file.write(new TextEncoder().encode("key: SECRET-0123"));
    assert.equal(await log.sync(), 16);
    await file.write(new TextEncoder().encode("456789 end\n"));
    file.close();
    const total = await log.sync();
    const onDisk = await Deno.readTextFile(log.paths.log);
    assert.equal(onDisk, `key: ${"#".repeat(secret.length)} end\n`);
    assert.equal(total, onDisk.length, "masking keeps the length, so cursors hold");
    assert.equal((await log.readPage(0)).output, onDisk);
  } finally {
    await log.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("output masking covers the kept head and tail when a flood is folded", async () => {
  const root = await Deno.makeTempDir();
  const plain = "SECRET-0123456789";
  const masked: number[] = [];
  const maskOutput = (bytes: Uint8Array) => {
    masked.push(bytes.length);
    const text = new TextDecoder("windows-1252").decode(bytes);
    if (!text.includes(plain)) return null;
    return new TextEncoder().encode(text.replaceAll(plain, "#".repeat(plain.length)));
  };
  const windowBytes = 4096;
  const log = await ProcessLog.open({
    root,
    threadId: THREAD,
    processId: PROCESS,
    windowBytes,
    maskOutput,
  });
  try {
    const file = await Deno.open(log.paths.log, { append: true });
    const filler = "x".repeat(99) + "\n";
    await file.write(
      new TextEncoder().encode(`head ${plain}\n${filler.repeat(2000)}tail ${plain}\n`),
    );
    file.close();
    await log.sync();
    const onDisk = await Deno.readTextFile(log.paths.log);
    assert.ok(onDisk.includes("bytes omitted"), "the flood was folded");
    assert.ok(!onDisk.includes(plain), "no secret is left in the kept head or tail");
    assert.ok(onDisk.startsWith(`head ${"#".repeat(plain.length)}`));
    assert.ok(onDisk.endsWith(`tail ${"#".repeat(plain.length)}\n`));
    assert.ok(Math.max(...masked) <= 2 * windowBytes + 1024, "a flood is never read whole");
  } finally {
    await log.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("process log loses nothing while a running child keeps appending during folds", async () => {
  const root = await Deno.makeTempDir();
  const paths = { root, threadId: THREAD, processId: PROCESS, windowBytes: 16 * 1024 };
  let child: Deno.ChildProcess | null = null;
  const log = await ProcessLog.open({
    ...paths,
    pauseWriter: () => {
      if (child === null) return null;
      const signal = (name: Deno.Signal) => {
        try {
          child?.kill(name);
        } catch {
          // it exited meanwhile
        }
      };
      return { pause: () => signal("SIGSTOP"), resume: () => signal("SIGCONT") };
    },
  });
  try {
    // Each line is one write(2) of 9 bytes through an O_APPEND redirection, as a command's
    // is. The child writes until it is stopped: how fast it runs against the folds below
    // depends on the machine's load, so the test stops it after enough folds, not after a
    // count of lines (a fixed count once gave a loaded machine too few folds).
    const script = `i=0; while :; do printf '%08d\\n' $i; i=$((i+1)); done`;
    child = new Deno.Command("/bin/sh", {
      args: ["-c", `exec >>"$1"; ${script}`, "sh", log.paths.log],
      stdout: "null",
      stderr: "null",
    }).spawn();
    const deadline = Date.now() + 60_000;
    let folds = 0;
    while (folds < 5) {
      assert.ok(Date.now() < deadline, `the log folded only ${folds} times in 60 s`);
      const before = (await Deno.stat(log.paths.log)).size;
      await log.sync();
      if ((await Deno.stat(log.paths.log)).size < before) folds++;
    }
    child.kill("SIGKILL");
    await child.status;
    child = null;
    const total = await log.sync();
    assert.equal(total % 9, 0, `whole lines only are counted (${total} bytes)`);
    const lines = total / 9;
    assert.ok(lines > 500, `the child wrote ${lines} lines`);
    let text = "";
    let cursor = total - 9 * 500; // inside the 8 KiB tail the 16 KiB window keeps
    for (let guard = 0; guard < 100 && cursor < total; guard++) {
      const page = await log.readPage(cursor);
      text += page.output;
      cursor = page.nextCursor;
    }
    const kept = text.trimEnd().split("\n").map(Number);
    const expected = Array.from({ length: 500 }, (_, i) => lines - 500 + i);
    assert.deepEqual(
      kept,
      expected,
      "every byte the child wrote is counted: the newest 500 lines end at the last one",
    );
  } finally {
    if (child !== null) {
      child.kill("SIGKILL");
      await child.status;
    }
    await log.close();
    await Deno.remove(root, { recursive: true });
  }
});
