import assert from "node:assert/strict";
import {
  createThread,
  exportThreadChunks,
  startTurn,
  StateStore,
  verifyExportedSegment,
} from "@daedalus/storage";
import { testRunConfig } from "../_test_run_config.ts";
import { startTestServer, type TestServer } from "./_test_fakes.ts";

interface Fixture extends AsyncDisposable {
  server: TestServer;
  threadId: string;
  url: (query: string, threadId?: string) => string;
  auth: { authorization: string };
}

async function fixture(): Promise<Fixture> {
  const dir = await Deno.makeTempDir({ prefix: "daedalus_export_test_" });
  const store = StateStore.open(`${dir}/state.db`);
  const threadId = (await createThread(store, { title: "Weekly", workspacesRoot: `${dir}/ws` }))
    .result.thread.id;
  startTurn(store, {
    threadId,
    content: "写一篇周报\nplease",
    providerId: "p",
    modelId: "m",
    runConfig: testRunConfig({ providerId: "p", modelId: "m" }),
  });
  const server = await startTestServer({
    exportThread: (id, format) =>
      exportThreadChunks((fn) => store.read((db) => fn(db.connection)), id, format),
  });
  return {
    server,
    threadId,
    url: (query, id = threadId) => `${server.url}/api/threads/${id}/export${query}`,
    auth: { authorization: `Bearer ${server.token}` },
    async [Symbol.asyncDispose]() {
      await server.close();
      store.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

async function refusal(response: Response): Promise<[number, string]> {
  const body = await response.json() as { error: { code: string } };
  return [response.status, body.error.code];
}

Deno.test("GET /api/threads/:id/export?format=jsonl streams a segment that verifies", async () => {
  await using f = await fixture();
  const response = await fetch(f.url("?format=jsonl"), { headers: f.auth });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "application/x-ndjson; charset=utf-8");
  assert.match(
    response.headers.get("content-disposition") ?? "",
    /^attachment; filename="thread_[0-9a-f]{32}\.jsonl"$/,
  );
  assert.equal(response.headers.get("cache-control"), "no-store");
  const text = await response.text();
  const verified = verifyExportedSegment(text);
  assert.equal(
    verified.ok,
    true,
    `the downloaded segment must verify: ${verified.failure?.message}`,
  );
  assert.ok(verified.events >= 3, `thread.created, turn and item events, got ${verified.events}`);
  for (const line of text.trimEnd().split("\n")) {
    assert.equal(JSON.parse(line).threadId, f.threadId, "only the thread's own rows");
  }
});

Deno.test("GET /api/threads/:id/export?format=markdown is the transcript storage export writes", async () => {
  await using f = await fixture();
  const response = await fetch(f.url("?format=markdown"), { headers: f.auth });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "text/markdown; charset=utf-8");
  const text = await response.text();
  assert.ok(text.startsWith(`# Weekly\n\nThread \`${f.threadId}\``), text.slice(0, 80));
  assert.match(text, /### You · .*\n\n写一篇周报\nplease\n/);
  assert.match(text, /Last event: seq \d+, hash `[0-9a-f]{64}`\.\n$/);
});

Deno.test("export refusals: bad format 400 export_format_invalid, unknown thread 404 thread_not_found", async () => {
  await using f = await fixture();
  const cases: [string, string | undefined, [number, string]][] = [
    ["no format", "", [400, "export_format_invalid"]],
    ["an unknown format", "?format=pdf", [400, "export_format_invalid"]],
    ["a format in other case", "?format=JSONL", [400, "export_format_invalid"]],
    ["a thread without events", "?format=jsonl", [404, "thread_not_found"]],
    ["an id that is no thread id", "?format=markdown", [404, "thread_not_found"]],
  ];
  const ids = [undefined, undefined, undefined, `thread_${"0".repeat(32)}`, "..%2Fauth"];
  for (const [index, [name, query, expected]] of cases.entries()) {
    const response = await fetch(f.url(query!, ids[index] ?? f.threadId), { headers: f.auth });
    assert.deepEqual(await refusal(response), expected, name);
  }
});

Deno.test("export needs a credential; a browser session works from its own origin only", async () => {
  await using f = await fixture();
  const none = await fetch(f.url("?format=jsonl"));
  assert.equal((await refusal(none))[0], 401, "no credential");
  const session = await fetch(`${f.server.url}/auth/session`, { method: "POST", headers: f.auth });
  await session.body?.cancel();
  const cookie = session.headers.get("set-cookie")!.split(";")[0]!;
  const sameOrigin = await fetch(f.url("?format=jsonl"), {
    headers: { cookie, "sec-fetch-site": "same-origin" },
  });
  assert.equal(sameOrigin.status, 200, "the PWA's fetch with its session cookie");
  await sameOrigin.body?.cancel();
  const foreign = await fetch(f.url("?format=jsonl"), {
    headers: { cookie, origin: "https://evil.example" },
  });
  assert.deepEqual(await refusal(foreign), [403, "origin_not_allowed"]);
});
