/**
 * The cost Daedalus adds to an MCP tool call (issue 17): server-everything's `echo`, called
 * (a) directly with the SDK client (its own stdio transport, or Streamable HTTP) and (b)
 * through Daedalus — the runtime's MCP connection (process-group stdio transport, redacted
 * stderr log) and the one tool wrapper every call passes (`executeTool`: JSON Schema
 * validation, the Run's gate with its loop detector and breaker, credential interception,
 * artifact check, timing). The model's side of a tool turn is not in either: this is the
 * call itself.
 *
 * At load it prints, for stdio and HTTP, the median and p90 of 300 calls after 50 warm-up
 * calls each way and the ratio of the medians; `Deno.bench` then times single calls.
 * Results: packages/runtime/README.md, "MCP tool calls".
 */
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  createCircuitBreakers,
  createRunGate,
  executeTool,
  type ToolContext,
  type ToolDefinition,
} from "@daedalus/tools";
import { McpServers } from "../../packages/runtime/mcp/mcp_servers.ts";
import { EVERYTHING_ENTRY, startHttpEverything } from "../../packages/runtime/mcp/_test_servers.ts";

const WARMUP = 50;
const MEASURED = 300;

const home = await Deno.makeTempDir({ prefix: "daedalus_mcp_bench_" });
const http = await startHttpEverything();

async function directClient(kind: "stdio" | "http"): Promise<Client> {
  const client = new Client({ name: "bench", version: "1" }, { capabilities: {} });
  await client.connect(
    kind === "stdio"
      ? new StdioClientTransport({ command: "node", args: [EVERYTHING_ENTRY, "stdio"] })
      : new StreamableHTTPClientTransport(new URL(http.url)),
  );
  return client;
}

const tools = new Map<string, ToolDefinition<unknown>>();
const servers = new McpServers({ tools, logsRoot: join(home, "logs"), redact: (text) => text });
servers.start({
  servers: {
    stdio: {
      command: "node",
      args: [EVERYTHING_ENTRY, "stdio"],
      enabled: true,
      timeout_ms: 60_000,
      tools: { disabled: [] },
    },
    http: { url: http.url, enabled: true, timeout_ms: 60_000, tools: { disabled: [] } },
  },
});
for (const name of ["mcp__stdio__echo", "mcp__http__echo"]) {
  const deadline = Date.now() + 20_000;
  while (!tools.has(name)) {
    if (Date.now() > deadline) throw new Error(`${name} never became available`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const gate = createRunGate({ executionPolicy: "full_access", breakers: createCircuitBreakers() });
let item = 0;
function context(): ToolContext {
  return {
    threadId: "thr_bench",
    runId: "run_bench",
    itemId: `itm_${item++}`,
    workspaceRoot: home,
    artifactsRoot: join(home, "artifacts"),
    executionPolicy: "full_access",
    signal: new AbortController().signal,
    protectedFiles: [],
    protectedValues: { find: () => false, redact: (text) => text },
    facts: { fileChanges: [], processes: [] },
    gate,
  };
}

// Distinct messages: the loop detector would refuse a call repeated with the same result.
let sequence = 0;
const direct = { stdio: await directClient("stdio"), http: await directClient("http") };
const callDirect = async (kind: "stdio" | "http") => {
  await direct[kind].callTool({ name: "echo", arguments: { message: `m${sequence++}` } });
};
const callDaedalus = async (kind: "stdio" | "http") => {
  const result = await executeTool(tools.get(`mcp__${kind}__echo`)!, {
    message: `m${sequence++}`,
  }, context());
  if (result.isError) throw new Error(result.content);
};

/** The runtime's connection alone, without the wrapper: where the difference comes from. */
const callConnection = async (kind: "stdio" | "http") => {
  await tools.get(`mcp__${kind}__echo`)!.run({ message: `m${sequence++}` }, context());
};

async function sample(call: () => Promise<void>): Promise<number[]> {
  for (let index = 0; index < WARMUP; index++) await call();
  const times: number[] = [];
  for (let index = 0; index < MEASURED; index++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

const at = (sorted: number[], share: number) => sorted[Math.floor(sorted.length * share)]!;
for (const kind of ["stdio", "http"] as const) {
  const plain = await sample(() => callDirect(kind));
  const ours = await sample(() => callDaedalus(kind));
  const connection = await sample(() => callConnection(kind));
  console.log(
    `mcp echo over ${kind}: SDK directly median ${at(plain, 0.5).toFixed(3)} ms ` +
      `(p90 ${at(plain, 0.9).toFixed(3)}); through Daedalus median ${
        at(ours, 0.5).toFixed(3)
      } ms (p90 ${at(ours, 0.9).toFixed(3)}); ratio ${
        (at(ours, 0.5) / at(plain, 0.5)).toFixed(2)
      }; ` +
      `the connection alone (no wrapper) median ${at(connection, 0.5).toFixed(3)} ms`,
  );
}

for (const kind of ["stdio", "http"] as const) {
  Deno.bench(
    { name: `mcp echo over ${kind}, SDK directly`, group: kind, baseline: true },
    async () => await callDirect(kind),
  );
  Deno.bench(
    { name: `mcp echo over ${kind}, through Daedalus`, group: kind },
    async () => await callDaedalus(kind),
  );
}

globalThis.addEventListener("unload", () => {
  // Best effort: the bench process is ending.
  void servers.close();
  void direct.stdio.close();
  void direct.http.close();
  void http[Symbol.asyncDispose]();
});
