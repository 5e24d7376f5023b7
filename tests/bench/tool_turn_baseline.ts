/**
 * The minimal baseline of the tool-turn benchmark (tool_turn_bench.ts): the same turn as
 * Daedalus does it, with nothing else. Hono serves one WebSocket; node:sqlite (WAL,
 * synchronous=NORMAL, as state.db) journals every event with one prepared INSERT and each
 * event is encoded to JSON once for every socket. A turn calls the same OpenAI-compatible
 * model with the same system prompt and tool schemas (read from `--prompt`, recorded from
 * Daedalus's own request), runs the one `read` it asks for inside the thread's workspace,
 * and calls the model again with the result. It journals the same 15 events per turn that
 * Daedalus journals (queued with the run config, the user item, running, two
 * input_prepared / response_finished pairs, the tool call and its result, the answer's
 * item.started / item.delta / item.completed, completed, settled) and one per
 * thread.create, with payloads of about the same size.
 *
 * No validation library, no streaming coalescer, no context engine, no permissions: what
 * it lacks is exactly the runtime's overhead the benchmark measures. Run as
 * `deno run <shipped flags> tool_turn_baseline.ts --port 0 --home DIR --model-url URL
 * --prompt FILE --token TOKEN`; it prints one JSON ready line `{"ready":true,"port":N}`.
 *
 * @module
 */
import { Hono } from "hono";
import { DatabaseSync } from "node:sqlite";
import { resolve, sep as SEPARATOR } from "node:path";

/** What the bench recorded from Daedalus's first request: the prompt and the tools. */
interface PromptFile {
  system: string;
  tools: unknown[];
  model: string;
}

interface Rpc {
  id: number;
  method: string;
  params: Record<string, unknown>;
}

const args = parseArgs(Deno.args);
const prompt = JSON.parse(await Deno.readTextFile(args.prompt)) as PromptFile;
const db = new DatabaseSync(`${args.home}/baseline.db`);
db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
  CREATE TABLE IF NOT EXISTS threads (id TEXT PRIMARY KEY, workspace TEXT NOT NULL,
    created_at TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS runs (id TEXT PRIMARY KEY, thread_id TEXT NOT NULL,
    status TEXT NOT NULL, config TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, type TEXT NOT NULL,
    thread_id TEXT NOT NULL, run_id TEXT, payload TEXT NOT NULL, created_at TEXT NOT NULL);`);
const insertEvent = db.prepare(
  "INSERT INTO events (type, thread_id, run_id, payload, created_at) VALUES (?, ?, ?, ?, ?)",
);
const insertThread = db.prepare("INSERT INTO threads (id, workspace, created_at) VALUES (?, ?, ?)");
const selectThread = db.prepare("SELECT workspace FROM threads WHERE id = ?");
const insertRun = db.prepare(
  "INSERT INTO runs (id, thread_id, status, config) VALUES (?, ?, 'queued', ?)",
);
const updateRun = db.prepare("UPDATE runs SET status = ? WHERE id = ?");
const sockets = new Set<WebSocket>();

/** Journals one event and sends it, encoded once, to every socket. */
function journal(type: string, threadId: string, runId: string | null, payload: unknown) {
  const createdAt = new Date().toISOString();
  const { lastInsertRowid } = insertEvent.run(
    type,
    threadId,
    runId,
    JSON.stringify(payload),
    createdAt,
  );
  const frame = JSON.stringify({
    jsonrpc: "2.0",
    method: "event",
    params: { seq: Number(lastInsertRowid), type, threadId, runId, createdAt, payload },
  });
  for (const socket of sockets) if (socket.readyState === WebSocket.OPEN) socket.send(frame);
}

const newId = (prefix: string) => `${prefix}_${crypto.randomUUID().replaceAll("-", "")}`;

/** The item envelope Daedalus's item events carry, about the same size. */
function item(ids: RunIds, kind: string, status: string, content: unknown) {
  return {
    item: {
      id: newId("item"),
      turnId: ids.turnId,
      runId: ids.runId,
      threadId: ids.threadId,
      kind,
      status,
      content,
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    },
    turnId: ids.turnId,
    runId: ids.runId,
    threadId: ids.threadId,
  };
}

interface RunIds {
  threadId: string;
  turnId: string;
  runId: string;
}

function createThread(params: Record<string, unknown>) {
  const id = newId("thread");
  const workspace = String((params.workspace as { rootUri?: unknown })?.rootUri ?? "");
  const createdAt = new Date().toISOString();
  insertThread.run(id, workspace, createdAt);
  const thread = { id, title: String(params.title ?? ""), workspace, createdAt };
  journal("thread.created", id, null, { thread });
  return { thread };
}

function startTurn(params: Record<string, unknown>): { ids: RunIds; content: string } {
  const threadId = String(params.threadId);
  const ids = { threadId, turnId: newId("turn"), runId: newId("run") };
  const config = { model: prompt.model, system: prompt.system, tools: prompt.tools };
  db.exec("BEGIN IMMEDIATE");
  try {
    insertRun.run(ids.runId, threadId, JSON.stringify(config));
    journal("run.state_changed", threadId, ids.runId, {
      status: "queued",
      previousStatus: null,
      run: { id: ids.runId, turnId: ids.turnId, threadId, config },
    });
    journal(
      "item.completed",
      threadId,
      ids.runId,
      item(ids, "message", "completed", { role: "user", text: String(params.content) }),
    );
    db.exec("COMMIT");
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
  return { ids, content: String(params.content) };
}

/** A streamed chat completion: the text deltas and the tool calls it asked for. */
interface Completion {
  deltas: string[];
  toolCalls: { id: string; name: string; arguments: string }[];
  usage: unknown;
}

async function complete(messages: unknown[], onDelta: (text: string) => void) {
  const response = await fetch(`${args.modelUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer baseline" },
    body: JSON.stringify({
      model: prompt.model,
      messages,
      stream: true,
      stream_options: { include_usage: true },
      tools: prompt.tools,
    }),
  });
  if (!response.ok || !response.body) throw new Error(`model answered ${response.status}`);
  const result: Completion = { deltas: [], toolCalls: [], usage: null };
  let buffer = "";
  for await (const text of response.body.pipeThrough(new TextDecoderStream())) {
    buffer += text;
    let end;
    while ((end = buffer.indexOf("\n\n")) !== -1) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (!frame.startsWith("data: ") || frame === "data: [DONE]") continue;
      const chunk = JSON.parse(frame.slice(6));
      if (chunk.usage) result.usage = chunk.usage;
      const delta = chunk.choices?.[0]?.delta;
      if (!delta) continue;
      if (delta.content) {
        result.deltas.push(delta.content);
        onDelta(delta.content);
      }
      for (const call of delta.tool_calls ?? []) {
        const known = result.toolCalls[call.index] ??= { id: "", name: "", arguments: "" };
        known.id += call.id ?? "";
        known.name += call.function?.name ?? "";
        known.arguments += call.function?.arguments ?? "";
      }
    }
  }
  return result;
}

/** The one tool: reads a file inside the workspace. */
async function read(workspace: string, argumentsText: string): Promise<string> {
  const path = resolve(workspace, String(JSON.parse(argumentsText).path));
  if (!path.startsWith(workspace + SEPARATOR)) throw new Error("outside the workspace");
  return await Deno.readTextFile(path);
}

async function runTurn(ids: RunIds, content: string) {
  const { threadId, runId } = ids;
  const workspace = String(selectThread.get(threadId)?.workspace);
  const messages: unknown[] = [
    { role: "system", content: prompt.system },
    { role: "user", content },
  ];
  updateRun.run("running", runId);
  journal("run.state_changed", threadId, runId, {
    status: "running",
    previousStatus: "queued",
    run: { id: runId, turnId: ids.turnId, threadId, startedAt: new Date().toISOString() },
  });
  for (let step = 1; step <= 2; step++) {
    journal("model.input_prepared", threadId, runId, {
      callOrdinal: step,
      stepOrdinal: step,
      purpose: "execution",
      messageCount: messages.length,
      toolCount: prompt.tools.length,
      inputBytes: JSON.stringify(messages).length,
      turnId: ids.turnId,
      runId,
      threadId,
    });
    let answer: ReturnType<typeof item> | null = null;
    const completion = await complete(messages, (delta) => {
      if (!answer) {
        answer = item(ids, "message", "streaming", { role: "assistant", text: "" });
        journal("item.started", threadId, runId, answer);
      }
      journal("item.delta", threadId, runId, {
        delta,
        itemId: answer.item.id,
        turnId: ids.turnId,
        runId,
        threadId,
      });
    });
    if (answer) {
      journal(
        "item.completed",
        threadId,
        runId,
        item(ids, "message", "completed", { role: "assistant", text: completion.deltas.join("") }),
      );
    }
    const finished = { callOrdinal: step, outcome: "completed", usage: completion.usage };
    journal("model.response_finished", threadId, runId, { ...finished, ...ids });
    if (completion.toolCalls.length === 0) break;
    messages.push({
      role: "assistant",
      content: null,
      tool_calls: completion.toolCalls.map((call) => ({
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: call.arguments },
      })),
    });
    for (const call of completion.toolCalls) {
      const started = item(ids, "tool_call", "running", call);
      journal("item.started", threadId, runId, started);
      const output = await read(workspace, call.arguments);
      journal("item.completed", threadId, runId, item(ids, "tool_call", "completed", call));
      journal(
        "item.completed",
        threadId,
        runId,
        item(ids, "tool_result", "completed", { callId: call.id, output }),
      );
      messages.push({ role: "tool", tool_call_id: call.id, content: output });
    }
  }
  updateRun.run("completed", runId);
  journal("run.state_changed", threadId, runId, {
    status: "completed",
    previousStatus: "running",
    run: { id: runId, turnId: ids.turnId, threadId, settledAt: new Date().toISOString() },
  });
  journal("run.settled", threadId, runId, {
    status: "completed",
    reasonCode: null,
    turnId: ids.turnId,
    runId,
  });
}

function onMessage(socket: WebSocket, data: string) {
  const request = JSON.parse(data) as Rpc;
  const reply = (result: unknown) =>
    socket.send(JSON.stringify({ jsonrpc: "2.0", id: request.id, result }));
  if (request.method === "thread.create") return reply(createThread(request.params));
  if (request.method === "turn.start") {
    const { ids, content } = startTurn(request.params);
    reply({ turnId: ids.turnId, runId: ids.runId });
    return void runTurn(ids, content).catch((error) => {
      journal("run.settled", ids.threadId, ids.runId, {
        status: "failed",
        reasonCode: "baseline_error",
        errorMessage: String(error),
        ...ids,
      });
    });
  }
  socket.send(JSON.stringify({ jsonrpc: "2.0", id: request.id, error: { code: -32601 } }));
}

const app = new Hono();
app.get("/ws", (c) => {
  if (c.req.header("authorization") !== `Bearer ${args.token}`) return c.text("no", 401);
  const { socket, response } = Deno.upgradeWebSocket(c.req.raw);
  socket.addEventListener("open", () => sockets.add(socket));
  socket.addEventListener("close", () => sockets.delete(socket));
  socket.addEventListener("message", (event) => onMessage(socket, String(event.data)));
  return response;
});

const server = Deno.serve({
  hostname: "127.0.0.1",
  port: Number(args.port),
  onListen: () => {},
}, app.fetch);
console.log(JSON.stringify({ ready: true, port: server.addr.port, pid: Deno.pid }));

function parseArgs(argv: string[]) {
  const value = (name: string) => {
    const index = argv.indexOf(`--${name}`);
    if (index < 0 || index + 1 >= argv.length) throw new Error(`--${name} is required`);
    return argv[index + 1]!;
  };
  return {
    port: value("port"),
    home: value("home"),
    modelUrl: value("model-url"),
    prompt: value("prompt"),
    token: value("token"),
  };
}
