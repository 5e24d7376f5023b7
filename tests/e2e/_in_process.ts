/**
 * A scripted runtime inside the test process (`startRuntime` on 127.0.0.1:0, real
 * HTTP/WebSocket server) with a model that answers like the process fixture
 * (tests/fixtures/scripted_server.ts) and its `echo` tool.
 *
 * @module
 */
import {
  createScriptedProvider,
  defineTool,
  type Provider,
  type ProviderContentPart,
  type ProviderRequest,
  type ScriptedResponse,
} from "@daedalus/runtime";
import { z } from "zod";
import { type Runtime, startRuntime } from "../../packages/runtime/runtime.ts";
import { makeTempHome, type TempHome } from "./_harness.ts";

/** How long each chunk of a "slow …" answer waits in the in-process model. */
export const SLOW_CHUNK_MS = 50;

/**
 * The fixture's model: "slow …" streams 20 chunks slowly, "tool …" (or "slow tool …")
 * calls `echo` once and then answers with the tool's output and any steer texts,
 * anything else answers "Answer to: <message>" in three chunks.
 *
 * @param request the model request
 * @returns the scripted response
 */
export function fixtureModel(request: ProviderRequest): ScriptedResponse {
  const users = request.messages.flatMap((m) => m.role === "user" ? [textOf(m.content)] : []);
  const message = [...users].reverse().find((m) => !m.startsWith("steer:")) ?? "";
  const steers = users.slice(users.lastIndexOf(message) + 1).filter((m) => m.startsWith("steer:"));
  // The fixture slows any message holding "slow"; here only one starting with it, so the
  // runtime's automatic-title call ("User: slow …") answers at once.
  const slow = message.startsWith("slow");
  const chunks = slow
    ? Array.from({ length: 20 }, (_, i) => `chunk${i} `)
    : ["Answer ", "to: ", message];
  const delayMs = slow ? SLOW_CHUNK_MS : 1;
  if (!message.startsWith("tool") && !message.startsWith("slow tool")) {
    return { text: chunks, delayMs };
  }
  const last = request.messages.at(-1);
  if (last?.role !== "tool") {
    return { text: chunks, delayMs, toolCalls: [{ name: "echo", arguments: { text: message } }] };
  }
  return { text: ["Tool said: ", String(last.content ?? ""), ...steers.map((s) => ` (${s})`)] };
}

function textOf(content: string | ProviderContentPart[]): string {
  if (typeof content === "string") return content;
  return content.map((part) => part.type === "text" ? part.text : "").join("");
}

/** Echoes its text back (the fixture's tool). */
export const echoTool = defineTool({
  id: "echo",
  description: "Echoes its text back",
  params: z.object({ text: z.string() }),
  mutating: false,
  risk: "read",
  run: (params) => Promise.resolve({ content: `echo: ${params.text}` }),
});

/** A scripted runtime in this process, on a real socket, with its temp home. */
export interface InProcessRuntime extends AsyncDisposable {
  /** The runtime. */
  readonly runtime: Runtime;
  /** `http://127.0.0.1:PORT/`. */
  readonly url: string;
  /** The access token. */
  readonly token: string;
  /** The temp home. */
  readonly home: TempHome;
}

/**
 * Starts `startRuntime` on 127.0.0.1:0 in a temp home with the echo tool.
 *
 * @param options most Runs at once; the provider (default: the fixture's model)
 * @returns the runtime; dispose shuts it down and removes the home
 */
export async function startInProcess(
  options: { workers?: number; provider?: Provider } = {},
): Promise<InProcessRuntime> {
  const home = await makeTempHome();
  let runtime: Runtime;
  try {
    runtime = await startRuntime({
      home: home.home,
      workspacesRoot: home.workspacesRoot,
      port: 0,
      workers: options.workers,
      providers: [options.provider ?? createScriptedProvider({ script: fixtureModel })],
      tools: [echoTool],
      memoryRefinement: false,
    });
  } catch (error) {
    await home[Symbol.asyncDispose]();
    throw error;
  }
  return {
    runtime,
    url: runtime.url,
    token: runtime.token,
    home,
    [Symbol.asyncDispose]: async () => {
      await runtime.shutdown();
      await home[Symbol.asyncDispose]();
    },
  };
}
