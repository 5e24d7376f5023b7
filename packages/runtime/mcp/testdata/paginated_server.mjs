// A tiny MCP server over stdio for the tests, written against the wire (no SDK): its tools
// come in pages of two; `add_tool` adds one and sends notifications/tools/list_changed;
// `crash` exits at once; `hang` never answers; `env` returns one variable's value;
// `ask_roots` asks the client for roots/list (or `arguments.method`) and returns its answer.
// Modes (argv[2]): "normal", "garbage" (prints a non-JSON line after initialize),
// "silent" (never answers initialize), "bad-schema" (a tool whose inputSchema is a string),
// "exit" (exits at once with code 7, before anything is said).
import { createInterface } from "node:readline";

const mode = process.argv[2] ?? "normal";
if (mode === "exit") process.exit(7);
const tools = ["alpha", "beta", "gamma", "add_tool", "crash", "hang", "env", "ask_roots"].map(
  (name) => ({
    name,
    description: `the ${name} tool`,
    inputSchema: name === "env"
      ? { type: "object", properties: { name: { type: "string" } }, required: ["name"] }
      : { type: "object", properties: {} },
  }),
);
if (mode === "bad-schema") tools[0].inputSchema = { type: "string" };
const PAGE = 2;
const send = (message) =>
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
const waiting = new Map();
let nextId = 1000;

function text(id, value) {
  send({ id, result: { content: [{ type: "text", text: value }] } });
}

createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.method === undefined && waiting.has(message.id)) {
    waiting.get(message.id)(message);
    waiting.delete(message.id);
    return;
  }
  const { id, method, params } = message;
  if (method === "initialize") {
    if (mode === "silent") return;
    send({
      id,
      result: {
        protocolVersion: params.protocolVersion,
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: "paginated", version: "1.0.0" },
      },
    });
    if (mode === "garbage") process.stdout.write("this is not json\n");
  } else if (method === "tools/list") {
    const start = params?.cursor ? Number(params.cursor) : 0;
    const page = tools.slice(start, start + PAGE);
    const next = start + PAGE < tools.length ? String(start + PAGE) : undefined;
    send({ id, result: { tools: page, ...(next ? { nextCursor: next } : {}) } });
  } else if (method === "tools/call") {
    const name = params.name;
    if (name === "add_tool") {
      tools.push({
        name: `added_${tools.length}`,
        inputSchema: { type: "object", properties: {} },
      });
      text(id, "added");
      send({ method: "notifications/tools/list_changed" });
    } else if (name === "crash") {
      process.exit(3);
    } else if (name === "hang") {
      // never answers
    } else if (name === "env") {
      text(id, `${params.arguments.name}=${process.env[params.arguments.name] ?? ""}`);
    } else if (name === "ask_roots") {
      const ask = nextId++;
      waiting.set(ask, (reply) => text(id, JSON.stringify(reply.error ?? reply.result)));
      send({ id: ask, method: params.arguments?.method ?? "roots/list", params: {} });
    } else {
      text(id, `${name} ran`);
    }
  } else if (id !== undefined && method !== undefined) {
    send({ id, error: { code: -32601, message: `no ${method}` } });
  }
});
