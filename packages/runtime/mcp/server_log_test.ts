import assert from "node:assert/strict";
import { join } from "node:path";
import { ServerLog } from "./server_log.ts";
import { MCP_LOG_LINE_MAX_CHARS, MCP_LOG_MAX_BYTES, MCP_LOG_TAIL_LINES } from "../limits.ts";

const SECRET = "log-secret-4e9a01";

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  return ReadableStream.from(chunks.map((chunk) => new TextEncoder().encode(chunk)));
}

async function withLog(fn: (log: ServerLog, folder: string) => Promise<void>) {
  const folder = await Deno.makeTempDir({ prefix: "daedalus_mcp_log_" });
  try {
    await fn(
      new ServerLog(join(folder, "mcp"), "srv", (t) => t.replaceAll(SECRET, "[redacted]")),
      folder,
    );
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
}

Deno.test("stderr lines are written redacted, split across chunks, the last kept in memory", async () => {
  await withLog(async (log) => {
    await log.follow(streamOf("one\r\ntw", `o ${SECRET}\n`, "no newline at the end"));
    await log.note("exited");
    const text = await Deno.readTextFile(log.path);
    assert.equal(text, "one\ntwo [redacted]\nno newline at the end\n[daedalus] exited\n");
    assert.deepEqual(log.tail(), [
      "one",
      "two [redacted]",
      "no newline at the end",
      "[daedalus] exited",
    ]);
    assert.equal((await Deno.stat(log.path)).mode! & 0o777, 0o600, "owner only");
  });
});

Deno.test("the tail keeps the last lines; a long line is cut; the file rotates past its limit", async () => {
  await withLog(async (log) => {
    const lines = Array.from({ length: MCP_LOG_TAIL_LINES + 5 }, (_, i) => `line ${i}`);
    await log.follow(streamOf(lines.join("\n") + "\n"));
    assert.equal(log.tail().length, MCP_LOG_TAIL_LINES);
    assert.equal(log.tail().at(-1), `line ${MCP_LOG_TAIL_LINES + 4}`);
    await log.follow(streamOf("x".repeat(MCP_LOG_LINE_MAX_CHARS * 2) + "\n"));
    assert.equal(log.tail().at(-1)?.length, MCP_LOG_LINE_MAX_CHARS, "cut to the line limit");
    const filler = "y".repeat(1000);
    const count = Math.ceil(MCP_LOG_MAX_BYTES / 1001) + 1;
    await log.follow(streamOf(Array.from({ length: count }, () => filler).join("\n") + "\n"));
    const rotated = await Deno.stat(`${log.path}.1`);
    assert.ok(
      rotated.size <= MCP_LOG_MAX_BYTES,
      `the old file is at most the limit: ${rotated.size}`,
    );
    assert.ok((await Deno.stat(log.path)).size <= MCP_LOG_MAX_BYTES);
  });
});
