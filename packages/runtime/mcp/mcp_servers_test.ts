import assert from "node:assert/strict";
import { join } from "node:path";
import type { McpServerConfig } from "@daedalus/storage";
import type { ToolContext, ToolDefinition, ToolResult } from "@daedalus/tools";
import { McpServers } from "./mcp_servers.ts";
import {
  EVERYTHING_ENTRY,
  FILESYSTEM_ENTRY,
  PAGINATED_SERVER,
  startHttpEverything,
} from "./_test_servers.ts";

const SECRET = "mcp-env-secret-0123456789";

function entry(fields: Partial<McpServerConfig>): McpServerConfig {
  return { enabled: true, timeout_ms: 60_000, tools: { disabled: [] }, ...fields };
}

async function withServers(
  servers: Record<string, McpServerConfig>,
  fn: (mcp: McpServers, tools: Map<string, ToolDefinition<unknown>>, home: string) => Promise<void>,
  connectTimeoutMs?: number,
  restartBackoffMinMs?: number,
) {
  const home = await Deno.makeTempDir({ prefix: "daedalus_mcp_test_" });
  const tools = new Map<string, ToolDefinition<unknown>>();
  const mcp = new McpServers({
    tools,
    logsRoot: join(home, "logs"),
    redact: (text) => text.replaceAll(SECRET, "[redacted]"),
    ...(connectTimeoutMs ? { connectTimeoutMs } : {}),
    ...(restartBackoffMinMs ? { restartBackoffMinMs } : {}),
  });
  try {
    await mcp.start({ servers });
    await fn(mcp, tools, home);
  } finally {
    await mcp.close();
    await Deno.remove(home, { recursive: true });
  }
}

async function until<T>(what: string, probe: () => T | undefined | null | false, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function call(
  tools: Map<string, ToolDefinition<unknown>>,
  name: string,
  args: unknown,
  signal = new AbortController().signal,
): Promise<ToolResult> {
  const tool = tools.get(name);
  assert.ok(tool, `tool ${name} offered (have ${[...tools.keys()]})`);
  const parsed = tool.params.safeParse(args);
  assert.ok(parsed.success, `arguments for ${name} valid`);
  return tool.run(parsed.data, { signal } as ToolContext);
}

const ready = (mcp: McpServers, name: string) => () =>
  mcp.view(name)?.status.state === "ready" ? mcp.view(name) : null;

Deno.test("server-everything over stdio: echo, get-sum, structured content, progress", async () => {
  await withServers({
    everything: entry({ command: "node", args: [EVERYTHING_ENTRY, "stdio"] }),
  }, async (mcp, tools) => {
    const view = await until("everything ready", ready(mcp, "everything"));
    assert.equal(view.status.serverInfo?.name, "mcp-servers/everything");
    assert.ok(view.status.protocolVersion, "a negotiated version");
    assert.ok(view.status.pid, "a pid");
    assert.ok(tools.has("mcp__everything__echo"), "echo offered");
    assert.ok(!tools.has("mcp__everything__simulate-research-query"), "task-only tool left out");
    assert.equal(
      (await call(tools, "mcp__everything__echo", { message: "hi" })).content,
      "Echo: hi",
    );
    const sum = await call(tools, "mcp__everything__get-sum", { a: 2, b: 3 });
    assert.match(sum.content, /5/);
    const structured = await call(tools, "mcp__everything__get-structured-content", {
      location: "New York",
    });
    assert.ok(structured.details?.structuredContent, `structured: ${JSON.stringify(structured)}`);
    const long = await call(tools, "mcp__everything__trigger-long-running-operation", {
      duration: 1,
      steps: 3,
    });
    const progress = long.details?.progress as { progress: number; total: number } | undefined;
    assert.ok(progress && progress.progress >= 1, `progress seen: ${JSON.stringify(long.details)}`);
    assert.equal(progress.total, 3);
    const image = await call(tools, "mcp__everything__get-tiny-image", {});
    assert.match(image.content, /\[image image\/png, \d+ bytes/);
  });
});

Deno.test("cancelling a call ends it at once; a call past timeout_ms fails mcp_timeout", async () => {
  await withServers({
    everything: entry({ command: "node", args: [EVERYTHING_ENTRY, "stdio"], timeout_ms: 1_000 }),
  }, async (mcp, tools) => {
    await until("everything ready", ready(mcp, "everything"));
    const abort = new AbortController();
    const started = performance.now();
    const pending = call(tools, "mcp__everything__trigger-long-running-operation", {
      duration: 30,
      steps: 3,
    }, abort.signal).catch((error) => error);
    setTimeout(() => abort.abort(), 200);
    const cancelled = await pending;
    assert.equal(cancelled.code, "cancelled", `cancelled: ${cancelled}`);
    assert.ok(performance.now() - started < 2_000, "at once, not after the operation");
    const timedOut = await call(tools, "mcp__everything__trigger-long-running-operation", {
      duration: 10,
      steps: 2,
    }).catch((error) => error);
    assert.equal(timedOut.code, "mcp_timeout", `${timedOut}`);
    assert.match(timedOut.message, /did not answer within 1000 ms/);
    const echo = await call(tools, "mcp__everything__echo", { message: "still" });
    assert.equal(echo.content, "Echo: still", "the server still works");
  });
});

Deno.test("server-everything over Streamable HTTP on 127.0.0.1 keeps its session", async () => {
  await using http = await startHttpEverything();
  await withServers({ web: entry({ url: http.url }) }, async (mcp, tools) => {
    const view = await until("web ready", ready(mcp, "web"));
    assert.ok(view.status.sessionId, "a session id");
    assert.ok(view.status.protocolVersion, "a negotiated version");
    assert.equal(
      (await call(tools, "mcp__web__echo", { message: "over http" })).content,
      "Echo: over http",
    );
    const sum = await call(tools, "mcp__web__get-sum", { a: 40, b: 2 });
    assert.match(sum.content, /42/);
  });
});

Deno.test("server-filesystem reads and writes inside its folder and refuses outside", async () => {
  const dir = await Deno.makeTempDir({ prefix: "daedalus_mcp_fs_" });
  try {
    await Deno.writeTextFile(join(dir, "a.txt"), "alpha\n");
    await withServers({
      fs: entry({ command: "node", args: [FILESYSTEM_ENTRY, dir] }),
    }, async (mcp, tools) => {
      await until("fs ready", ready(mcp, "fs"));
      const read = await call(tools, "mcp__fs__read_text_file", { path: join(dir, "a.txt") });
      assert.match(read.content, /alpha/);
      await call(tools, "mcp__fs__write_file", { path: join(dir, "b.txt"), content: "beta" });
      assert.equal(await Deno.readTextFile(join(dir, "b.txt")), "beta");
      const outside = await call(tools, "mcp__fs__read_text_file", { path: "/etc/hostname" });
      assert.equal(outside.isError, true);
      assert.equal(outside.errorCode, "mcp_tool_error");
      assert.match(outside.content, /Access denied|outside allowed/);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every page of tools/list is read; list_changed adds the new tool; roots are the workspace", async () => {
  await withServers({
    pages: entry({ command: "node", args: [PAGINATED_SERVER], tools: { disabled: ["beta"] } }),
  }, async (mcp, tools) => {
    const view = await until("pages ready", ready(mcp, "pages"));
    assert.equal(view.tools.length, 8, "four pages of two");
    assert.ok(tools.has("mcp__pages__ask_roots"), "the last page's tool");
    assert.ok(!tools.has("mcp__pages__beta"), "a disabled tool is not offered");
    assert.equal(view.tools.find((tool) => tool.tool.name === "beta")?.enabled, false);
    await call(tools, "mcp__pages__add_tool", {});
    await until("the added tool", () => tools.has("mcp__pages__added_8"));
    const workspace = await Deno.makeTempDir({ prefix: "daedalus_mcp_root_" });
    try {
      const tool = tools.get("mcp__pages__ask_roots")!;
      const signal = new AbortController().signal;
      const roots = await tool.run({}, { signal, workspaceRoot: workspace } as ToolContext);
      assert.deepEqual(JSON.parse(roots.content), {
        roots: [{ uri: `file://${workspace}`, name: workspace.split("/").at(-1) }],
      }, "roots/list answers the calling Run's workspace");
      const sampling = await tool.run({ method: "sampling/createMessage" }, {
        signal,
        workspaceRoot: workspace,
      } as ToolContext);
      assert.match(sampling.content, /-32601/, `sampling refused: ${sampling.content}`);
    } finally {
      await Deno.remove(workspace, { recursive: true });
    }
  });
});

Deno.test("a crashed server is restarted; its failure is visible meanwhile", async () => {
  await withServers({
    pages: entry({ command: "node", args: [PAGINATED_SERVER] }),
  }, async (mcp, tools) => {
    const first = await until("pages ready", ready(mcp, "pages"));
    const crashed = await call(tools, "mcp__pages__crash", {}).catch((error) => error);
    assert.equal(crashed.code, "mcp_server_unavailable", `${crashed}`);
    const failed = await until("failed", () => {
      const view = mcp.view("pages");
      return view?.status.state === "failed" ? view : null;
    });
    assert.match(failed.status.message ?? "", /exited with code 3/);
    assert.ok(!tools.has("mcp__pages__alpha"), "a failed server's tools are withdrawn");
    const again = await until("ready again", () => {
      const view = mcp.view("pages");
      return view?.status.state === "ready" && view.status.restarts === 1 ? view : null;
    });
    assert.notEqual(again.status.pid, first.status.pid, "a new process");
    assert.equal((await call(tools, "mcp__pages__alpha", {})).content, "alpha ran");
    const log = await Deno.readTextFile(again.logPath);
    assert.match(log, /failed: the server process exited with code 3/);
  });
});

Deno.test("a server that keeps crashing is restarted at most 5 times a minute, then stays failed", async () => {
  await withServers(
    {
      dying: entry({ command: "node", args: [PAGINATED_SERVER, "exit"] }),
    },
    async (mcp) => {
      const given = await until("it gives up", () => {
        const view = mcp.view("dying");
        return view?.status.state === "failed" &&
            /not restarting again/.test(view.status.message ?? "")
          ? view
          : null;
      });
      assert.equal(given.status.restarts, 5, given.status.message ?? "");
      assert.match(given.status.message ?? "", /exited with code 7/);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(mcp.view("dying")?.status.restarts, 5, "no sixth restart");
      await mcp.restart("dying"); // mcp.restart forgets the crashes and tries once more
      assert.equal(mcp.view("dying")?.status.state, "failed");
    },
    undefined,
    10,
  );
});

Deno.test("a hanging tool times out; the server keeps answering", async () => {
  await withServers({
    pages: entry({ command: "node", args: [PAGINATED_SERVER], timeout_ms: 1_000 }),
  }, async (mcp, tools) => {
    await until("pages ready", ready(mcp, "pages"));
    const started = performance.now();
    const hung = await call(tools, "mcp__pages__hang", {}).catch((error) => error);
    assert.equal(hung.code, "mcp_timeout", `${hung}`);
    assert.ok(performance.now() - started < 3_000, "about the timeout");
    assert.equal((await call(tools, "mcp__pages__alpha", {})).content, "alpha ran");
  });
});

const BROKEN: [string, string[], RegExp][] = [
  ["malformed JSON-RPC", ["garbage"], /malformed JSON/],
  ["a tool schema that is not an object schema", ["bad-schema"], /object|inputSchema|type/i],
];

for (const [what, args, reason] of BROKEN) {
  Deno.test(`a server that sends ${what} is failed with the reason`, async () => {
    await withServers({
      broken: entry({ command: "node", args: [PAGINATED_SERVER, ...args] }),
      good: entry({ command: "node", args: [PAGINATED_SERVER] }),
    }, async (mcp, tools) => {
      const failed = await until("broken failed", () => {
        const view = mcp.view("broken");
        return view?.status.state === "failed" ? view : null;
      });
      assert.match(failed.status.message ?? "", reason);
      await until("good ready", ready(mcp, "good"));
      assert.ok(tools.has("mcp__good__alpha"), "the other server works");
    });
  });
}

Deno.test("a server that never answers initialize fails; a missing command fails", async () => {
  await withServers({
    silent: entry({ command: "node", args: [PAGINATED_SERVER, "silent"] }),
    missing: entry({ command: "/nonexistent/mcp-server" }),
  }, async (mcp) => {
    assert.equal(mcp.view("silent")?.status.state, "connecting", "connecting meanwhile");
    const missing = await until("missing failed", () => {
      const view = mcp.view("missing");
      return view?.status.state === "failed" ? view : null;
    });
    assert.match(missing.status.message ?? "", /No such file|not found|nonexistent/i);
    const silent = await until("silent failed", () => {
      const view = mcp.view("silent");
      return view?.status.state === "failed" ? view : null;
    });
    assert.match(silent.status.message ?? "", /timed out|timeout/i, silent.status.message ?? "");
  }, 500);
});

Deno.test("env reaches the server; the runtime's own environment does not", async () => {
  await withServers({
    pages: entry({ command: "node", args: [PAGINATED_SERVER], env: { API_TOKEN: SECRET } }),
  }, async (mcp, tools) => {
    await until("pages ready", ready(mcp, "pages"));
    const seen = await call(tools, "mcp__pages__env", { name: "API_TOKEN" });
    assert.equal(seen.content, `API_TOKEN=${SECRET}`, "the server got it (the wrapper redacts)");
    const home = await call(tools, "mcp__pages__env", { name: "DAEDALUS_HOME" });
    assert.equal(home.content, "DAEDALUS_HOME=", "the runtime's own env is not inherited");
  });
});

Deno.test("disabled servers stay disabled; apply replaces and removes", async () => {
  await withServers({
    off: entry({ command: "node", args: [PAGINATED_SERVER], enabled: false }),
  }, async (mcp, tools) => {
    assert.equal(mcp.view("off")?.status.state, "disabled");
    await mcp.apply("off", entry({ command: "node", args: [PAGINATED_SERVER] }));
    await until("ready", ready(mcp, "off"));
    assert.ok(tools.has("mcp__off__alpha"));
    await mcp.apply("off", null);
    assert.equal(mcp.view("off"), null);
    assert.ok(![...tools.keys()].some((name) => name.startsWith("mcp__off__")), "tools gone");
  });
});
