/**
 * MCP servers as a user gets them (issue 17), with the shipped flags: the scripted fixture
 * starts with config.yaml naming server-everything (stdio, its installed entry point run
 * by `node`) and the tiny paginated test server, whose `env` holds a secret; a second
 * server-everything over Streamable HTTP on 127.0.0.1 is added with `mcp.configure` (its
 * header a secret too). The model
 * (driven with "call: <tool> <JSON>") calls their tools through the one wrapper; a hanging
 * tool times out; a crashed server is restarted; a switched off tool is withdrawn; `mcp.configure` refuses a bad entry naming the field; the secret
 * is nowhere in the events, RPC results, the server's log or the runtime's output; a clean
 * shutdown stops the servers' processes.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { JournalEvent } from "@daedalus/client";
import { makeTempHome, startFixture } from "./_harness.ts";
import { openClient, replayAll, turnParams, waitUntil } from "./_clients.ts";
import {
  EVERYTHING_ENTRY,
  PAGINATED_SERVER,
  startHttpEverything,
} from "../../packages/runtime/mcp/_test_servers.ts";

const SECRET = "mcp-e2e-secret-token-5f3a9c1d";
const HEADER_SECRET = "mcp-e2e-header-secret-77b2e0";

function config(): string {
  return [
    "version: 1",
    "mcp:",
    "  servers:",
    "    everything:",
    "      command: node",
    `      args: [${JSON.stringify(EVERYTHING_ENTRY)}, stdio]`,
    "    pages:",
    "      command: node",
    `      args: [${JSON.stringify(PAGINATED_SERVER)}]`,
    "      permission: allow",
    "      timeout_ms: 1500",
    "      env:",
    `        API_TOKEN: ${SECRET}`,
    "",
  ].join("\n");
}

type WireServer = { name: string; state: string; toolCount: number; tools: { name: string }[] };

Deno.test("spawned: MCP tools are offered, called, switched off and kept secret; shutdown stops the servers", async () => {
  await using home = await makeTempHome();
  await using http = await startHttpEverything();
  await Deno.writeTextFile(join(home.home, "config.yaml"), config());
  await using server = await startFixture(home);
  await using recording = await openClient(server.url, await server.token());
  const { client } = recording;
  const servers = async () => (await client.call("mcp.list", {})).servers as WireServer[];
  const ready = await waitUntil("both configured servers ready", async () => {
    const list = await servers();
    return list.length === 2 && list.every((s) => s.state === "ready") ? list : undefined;
  });
  assert.deepEqual(ready.map((s) => s.name), ["everything", "pages"]);
  assert.ok(ready[0]!.toolCount >= 10, `everything's tools: ${ready[0]!.toolCount}`);

  // Added while the runtime runs, over Streamable HTTP, with a secret header.
  const added = await client.call("mcp.configure", {
    name: "web",
    transport: "http",
    url: http.url,
    headers: { "X-Api-Key": HEADER_SECRET },
  });
  assert.deepEqual(added.server.headerNames, ["X-Api-Key"], "header names only");
  await waitUntil(
    "web ready",
    async () => (await servers()).find((s) => s.name === "web" && s.state === "ready"),
  );

  const { thread } = await client.call("thread.create", { title: "mcp" });
  const turn = async (
    content: string,
    executionPolicy: "ask" | "full_access" = "full_access",
    modelId = "scripted-model",
    answer: "allow_once" | "allow_always" | null = "allow_once",
  ) => {
    const { runId } = await client.call(
      "turn.start",
      turnParams(thread.id, content, { executionPolicy, modelId }),
    );
    let approval: { decisions: string[]; rule: unknown } | null = null;
    if (executionPolicy === "ask" && content.includes("everything") && answer !== null) {
      // The default for a tool that is not read-only: the user is asked.
      const asked = await recording.waitForEvent(
        `the approval of ${content}`,
        (event) => event.type === "approval.requested" && event.runId === runId,
      );
      const { approvalId, summary, decisions, rule } = asked.payload as {
        approvalId: string;
        summary: string;
        decisions: string[];
        rule: unknown;
      };
      assert.match(summary, /mcp__everything__/, `the card names the tool: ${summary}`);
      approval = { decisions, rule };
      await client.call("approval.respond", { approvalId, decision: answer });
    }
    await recording.waitForEvent(
      `the run of ${content}`,
      (event) => event.type === "run.settled" && event.runId === runId,
    );
    const items = recording.events.filter((e: JournalEvent) =>
      e.type === "item.completed" && e.runId === runId
    ).map((e) =>
      (e.payload as { item: { kind: string; content: string; data?: Record<string, unknown> } })
        .item
    );
    return {
      result: items.find((item) => item.kind === "tool_result"),
      answer: items.filter((item) => item.kind === "message").at(-1)?.content ?? "",
      approval,
      asked: recording.events.some((e: JournalEvent) =>
        e.type === "approval.requested" && e.runId === runId
      ),
    };
  };

  const echo = await turn('call: mcp__everything__echo {"message":"hello from e2e"}');
  assert.equal(echo.result?.content, "Echo: hello from e2e", JSON.stringify(echo.result));
  assert.match(echo.answer, /Echo: hello from e2e/);
  const overHttp = await turn('call: mcp__web__echo {"message":"over http"}');
  assert.equal(overHttp.result?.content, "Echo: over http", JSON.stringify(overHttp.result));
  // An image result reaches a vision model as an image; other models read the note.
  const seen = await turn(
    "call: mcp__everything__get-tiny-image {}",
    "full_access",
    "scripted-vision",
  );
  assert.match(seen.answer, /\(images shown: 1\)/, seen.answer);
  const image = (seen.result?.data?.images as { path: string; mimeType: string }[])[0];
  assert.equal(image?.mimeType, "image/png");
  assert.ok((await Deno.stat(image!.path)).size > 0, "the image is kept in the artifacts");
  const unseen = await turn("call: mcp__everything__get-tiny-image {}");
  assert.doesNotMatch(unseen.answer, /images shown/, "a model without vision gets the note");
  assert.match(unseen.answer, /\[image image\/png, \d+ bytes/);
  // Progress notifications are journaled on the call's item while it runs.
  const long = await turn(
    'call: mcp__everything__trigger-long-running-operation {"duration":2,"steps":4}',
  );
  assert.match(long.result?.content ?? "", /completed/i, long.result?.content);
  const progress = recording.events.filter((event) => event.type === "item.progress");
  assert.ok(progress.length >= 2, `progress reported: ${progress.length}`);
  assert.ok(
    progress.every((event) => event.itemId === progress[0]!.itemId && event.itemId !== null),
    "on the tool_call item",
  );
  assert.equal((progress[0]!.payload as { total: number | null }).total, 4);
  const sum = await turn('call: mcp__everything__get-sum {"a":19,"b":23}');
  assert.match(sum.result?.content ?? "", /42/);
  const asked = await turn('call: mcp__everything__get-sum {"a":1,"b":2}', "ask");
  assert.match(asked.result?.content ?? "", /3/, `allowed once, it ran: ${asked.result?.content}`);
  // "Always allow" names the server's tool in a rule; the next call is not asked about.
  const always = await turn(
    'call: mcp__everything__get-sum {"a":2,"b":3}',
    "ask",
    "scripted-model",
    "allow_always",
  );
  assert.deepEqual(always.approval?.rule, { tool: "mcp:everything/get-sum", decision: "allow" });
  assert.ok(always.approval?.decisions.includes("allow_always"), "always is offered");
  assert.match(always.result?.content ?? "", /5/);
  const remembered = await turn(
    'call: mcp__everything__get-sum {"a":4,"b":5}',
    "ask",
    "scripted-model",
    null,
  );
  assert.equal(remembered.asked, false, "the rule answers: nobody is asked");
  assert.match(remembered.result?.content ?? "", /9/);
  const written = await Deno.readTextFile(join(home.home, "config.yaml"));
  assert.match(written, /tool: mcp:everything\/get-sum/, "the rule is in config.yaml");
  const allowed = await turn("call: mcp__pages__alpha {}", "ask");
  assert.equal(allowed.result?.content, "alpha ran", "permission: allow asks nobody");
  // A hanging tool times out with a clear code; the server keeps answering.
  const hung = await turn("call: mcp__pages__hang {}");
  assert.equal(hung.result?.data?.errorCode, "mcp_timeout", hung.result?.content);
  assert.match(hung.result?.content ?? "", /did not answer within 1500 ms/);
  // A server that crashes is restarted; mcp.list shows it.
  const crashed = await turn("call: mcp__pages__crash {}");
  assert.equal(crashed.result?.data?.errorCode, "mcp_server_unavailable", crashed.result?.content);
  const back = await waitUntil(
    "pages restarted",
    async () =>
      (await servers()).find((s) =>
        s.name === "pages" && s.state === "ready" &&
        (s as WireServer & { restarts: number }).restarts === 1
      ),
  );
  assert.ok(back, "ready again after one restart");
  const invalid = await turn('call: mcp__everything__get-sum {"a":"x"}');
  assert.equal(invalid.result?.data?.errorCode, "invalid_arguments", "checked before the call");

  const leak = await turn('call: mcp__pages__env {"name":"API_TOKEN"}');
  assert.equal(leak.result?.data?.errorCode, "protected_value", JSON.stringify(leak.result));

  await client.call("mcp.tool.set_enabled", { name: "everything", tool: "echo", enabled: false });
  const off = await turn('call: mcp__everything__echo {"message":"again"}');
  assert.match(off.result?.content ?? "", /unknown|not available|no tool/i, off.result?.content);
  await recording.waitForEvent(
    "mcp.status_changed for the switched-off tool",
    (event) =>
      event.type === "mcp.status_changed" &&
      (event.payload as { server: { name: string; toolCount: number } }).server.name ===
        "everything" &&
      (event.payload as { server: { toolCount: number } }).server.toolCount ===
        ready[0]!.toolCount - 1,
  );

  await assert.rejects(
    client.call("mcp.configure", { name: "bad", transport: "http", url: "ftp://example.com/" }),
    (error: { reasonCode?: string; data?: { field?: string } }) => {
      assert.equal(error.reasonCode, "config_invalid");
      assert.equal(error.data?.field, "url");
      return true;
    },
  );
  await assert.rejects(
    client.call("mcp.restart", { name: "nope" }),
    (error: { reasonCode?: string }) => error.reasonCode === "mcp_server_not_found",
  );

  const listed = JSON.stringify(await client.call("mcp.list", {}));
  const pids = (await client.call("mcp.list", {})).servers
    .filter((s: { transport: string }) => s.transport === "stdio")
    .map((s: { pid: number | null }) => s.pid);
  assert.ok(pids.every((pid: number | null) => pid !== null && alive(pid)), `running: ${pids}`);
  assert.ok(listed.includes("API_TOKEN"), "env names are shown");
  const everythingLog = await Deno.readTextFile(join(home.home, "logs", "mcp", "everything.log"));
  const pagesLog = await Deno.readTextFile(join(home.home, "logs", "mcp", "pages.log"));
  const journal = JSON.stringify(await replayAll(client));
  for (
    const [where, text] of [
      ["mcp.list", listed],
      ["the events", journal],
      ["the recorded events", JSON.stringify(recording.events)],
      ["the logs", everythingLog + pagesLog],
      ["the runtime's output", server.child.stdout + server.child.stderr],
    ]
  ) {
    assert.ok(!text!.includes(SECRET), `the env secret leaked into ${where}`);
    assert.ok(!text!.includes(HEADER_SECRET), `the header secret leaked into ${where}`);
  }

  // A clean shutdown stops every server's process group.
  await client.call("runtime.shutdown", {});
  await server.child.exit(30_000);
  const left = (pids as number[]).filter(alive);
  assert.deepEqual(left, [], "no server process outlives the runtime");
});

/** Whether a process (group) still exists: signal 0 probes without sending anything. */
function alive(pid: number): boolean {
  try {
    Deno.kill(-pid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}

Deno.test("spawned: a stdio server a SIGKILLed runtime left running is stopped when the next one starts", async () => {
  await using home = await makeTempHome();
  await Deno.writeTextFile(
    join(home.home, "config.yaml"),
    [
      "version: 1",
      "mcp:",
      "  servers:",
      "    pages:",
      // A server that outlives its stdin (the reference servers exit when it closes): the
      // shell leading its group sleeps on after node is gone.
      "      command: /bin/sh",
      `      args: ["-c", ${JSON.stringify(`node ${PAGINATED_SERVER}; exec sleep 1000`)}]`,
      "",
    ].join("\n"),
  );
  let orphan: number | null = null;
  {
    await using first = await startFixture(home);
    await using recording = await openClient(first.url, await first.token());
    const ready = await waitUntil("pages ready", async () => {
      const list = (await recording.client.call("mcp.list", {})).servers as {
        state: string;
        pid: number | null;
      }[];
      return list[0]?.state === "ready" && list[0].pid !== null ? list[0] : undefined;
    });
    orphan = ready.pid;
    first.child.kill("SIGKILL"); // a crash: nobody stops the server
    await first.child.exit(30_000);
  }
  assert.ok(orphan !== null && alive(orphan), "the server outlived the crashed runtime");
  await using second = await startFixture(home);
  await using recording = await openClient(second.url, await second.token());
  await waitUntil(
    "the left-over server is gone",
    () => Promise.resolve(!alive(orphan!) || undefined),
  );
  const list = await waitUntil("pages ready again", async () => {
    const servers = (await recording.client.call("mcp.list", {})).servers as {
      state: string;
      pid: number | null;
    }[];
    return servers[0]?.state === "ready" ? servers : undefined;
  });
  assert.notEqual(list[0]!.pid, orphan, "a new server of its own");
});
