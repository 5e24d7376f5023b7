/**
 * The pieces of the tool-turn benchmark (tool_turn_bench.ts, tool_turn_rss.ts): the real
 * `daedalus serve` with the shipped flags talking to a strict fake OpenAI model on
 * loopback, the minimal Hono + node:sqlite baseline (tool_turn_baseline.ts) talking to the
 * same fake, one timed tool turn on each, WebSocket byte counting and the statistics.
 *
 * A tool turn: a new thread with a workspace holding `notes.txt`; turn.start "read
 * notes.txt"; the model asks for one `read` of it, then answers in one text chunk; the
 * turn is timed from sending turn.start to the client seeing run.settled.
 *
 * @module
 */
import {
  connect,
  type DaedalusClient,
  type WebSocketConstructor,
  type WebSocketOptions,
} from "@daedalus/client";
import {
  ChildProcess,
  makeTempHome,
  type ServerProcess,
  startShippedRuntime,
  type TempHome,
  WAIT_MS,
} from "../e2e/_harness.ts";
import { type FakeOpenAI, type FakeResponse, startFakeOpenAI } from "../fixtures/fake_openai.ts";
import { dialect } from "../fixtures/fake_dialects.ts";

/** The file the model reads: 20 lines, 460 bytes. */
export const NOTES = Array.from({ length: 20 }, (_, i) => `line ${i + 1}: hello from the project`)
  .join("\n") + "\n";
/** The model's answer after the read. */
export const ANSWER = "The file says hello from the project, twenty times.";
const PROVIDER = { providerId: "fake", modelId: "fake-model" } as const;

/** The model's two responses of one tool turn: one `read`, then the answer. */
export function toolTurnResponses(): FakeResponse[] {
  return [
    { step: { toolCalls: [{ id: "call_1", name: "read", arguments: { path: "notes.txt" } }] } },
    { step: { text: ANSWER } },
  ];
}

/** Counts the bytes of every WebSocket message a client receives. */
export class ByteCounter {
  bytes = 0;
  messages = 0;
  readonly #encoder = new TextEncoder();

  /** A WebSocket constructor whose sockets add every received message to this counter. */
  webSocket(): WebSocketConstructor {
    const count = (data: unknown) => {
      this.messages++;
      this.bytes += typeof data === "string"
        ? this.#encoder.encode(data).length
        : (data as ArrayBuffer).byteLength;
    };
    return class extends WebSocket {
      constructor(url: string | URL, protocols?: string[] | WebSocketOptions) {
        super(url, protocols as string[]);
        this.addEventListener("message", (event) => count(event.data));
      }
    } as unknown as WebSocketConstructor;
  }

  /** Starts a new measurement window. */
  reset(): void {
    this.bytes = 0;
    this.messages = 0;
  }
}

/** Median and 90th percentile of samples, in their unit. */
export function summarize(samples: number[]): { median: number; p90: number; n: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { median: at(0.5), p90: at(0.9), n: sorted.length };
}

/** Waits for `probe` with a deadline, failing with `label`. */
export function deadline<T>(label: string, promise: Promise<T>, ms = WAIT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) =>
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${label}`)), ms)
  );
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The shipped runtime with the fake model configured and a workspace. */
export interface DaedalusUnderTest extends AsyncDisposable {
  readonly server: ServerProcess;
  readonly fake: FakeOpenAI;
  readonly home: TempHome;
  readonly workspace: string;
  readonly token: string;
  /** The runtime's process id (for /proc/<pid>/status). */
  readonly pid: number;
  /** Connects one more @daedalus/client, counting its bytes when a counter is given. */
  client(counter?: ByteCounter): Promise<DaedalusClient>;
  /** Kills the runtime and removes its home at once (for `unload`, which cannot wait). */
  disposeSync(): void;
}

/**
 * Starts `daedalus serve` (packages/runtime/main.ts with the shipped flags; no titles,
 * no memory refinement) and a strict OpenAI-dialect fake on loopback, and configures it
 * as the custom provider `fake`.
 */
export async function startDaedalus(): Promise<DaedalusUnderTest> {
  const home = await makeTempHome();
  const fake = startFakeOpenAI({ dialect: dialect("openai") });
  const server = await startShippedRuntime(home, {
    DAEDALUS_THREAD_TITLES: "0",
    DAEDALUS_MEMORY_REFINEMENT: "0",
  });
  const token = await server.token();
  const workspace = `${home.workspacesRoot}/project`;
  await Deno.mkdir(workspace);
  await Deno.writeTextFile(`${workspace}/notes.txt`, NOTES);
  const open = (counter?: ByteCounter) =>
    connect({
      url: server.url,
      token,
      ...(counter ? { WebSocket: counter.webSocket() } : {}),
    });
  const admin = await open();
  await admin.call("provider.configure", {
    kind: "custom",
    displayName: "Fake",
    baseUrl: fake.url,
    models: [{ id: PROVIDER.modelId, displayName: "Fake", contextWindow: 65536 }],
    providerId: PROVIDER.providerId,
  });
  await admin.close();
  return {
    server,
    fake,
    home,
    workspace,
    token,
    pid: server.ready.pid,
    client: open,
    disposeSync() {
      server.child.kill("SIGKILL");
      removeSyncOrSay(home.home.slice(0, home.home.lastIndexOf("/")));
    },
    async [Symbol.asyncDispose]() {
      await server[Symbol.asyncDispose]();
      await fake.close();
      await home[Symbol.asyncDispose]();
    },
  };
}

/**
 * One Daedalus tool turn on a new thread: thread.create (not timed), then turn.start →
 * run.settled seen by `client`.
 *
 * @returns the milliseconds from sending turn.start to seeing run.settled
 * @throws {Error} when the run does not complete
 */
export async function daedalusToolTurn(
  daedalus: DaedalusUnderTest,
  client: DaedalusClient,
  watchers: DaedalusClient[] = [client],
): Promise<number> {
  daedalus.fake.enqueue(...toolTurnResponses());
  const { thread } = await client.call("thread.create", {
    title: "bench",
    workspace: { rootUri: daedalus.workspace },
  });
  return await timedTurn(client, watchers, thread.id, "read notes.txt");
}

/**
 * turn.start on a thread, timed until every watcher has seen its run.settled.
 *
 * @throws {Error} when the run settles other than completed
 */
export async function timedTurn(
  client: DaedalusClient,
  watchers: DaedalusClient[],
  threadId: string,
  content: string,
): Promise<number> {
  // run.settled may arrive before the turn.start response: every watcher keeps what it
  // saw by run id, and the wait starts once the id is known.
  type Outcome = { status: unknown; error: unknown };
  const seen = watchers.map(() => new Map<string, Outcome>());
  const wakers: Array<() => void> = [];
  const stops = watchers.map((watcher, index) =>
    watcher.onEvent((event) => {
      if (event.type !== "run.settled") return;
      seen[index]!.set(event.runId ?? "", {
        status: event.payload.status,
        error: event.payload.errorMessage,
      });
      for (const wake of wakers.splice(0)) wake();
    })
  );
  const started = performance.now();
  let outcomes: Outcome[];
  try {
    const { runId } = await client.call("turn.start", { threadId, content, ...PROVIDER });
    const all = async () => {
      while (!seen.every((map) => map.has(runId))) {
        await new Promise<void>((resolve) => wakers.push(resolve));
      }
      return seen.map((map) => map.get(runId)!);
    };
    outcomes = await deadline("run.settled on every client", all());
  } finally {
    for (const stop of stops) stop();
  }
  const elapsed = performance.now() - started;
  for (const outcome of outcomes) {
    if (outcome.status !== "completed") {
      throw new Error(`the run settled ${outcome.status}: ${String(outcome.error)}`);
    }
  }
  return elapsed;
}

/** The baseline server and a minimal JSON-RPC client of it. */
export interface Baseline extends AsyncDisposable {
  readonly pid: number;
  /** One tool turn: thread.create (not timed), then turn.start → run.settled. */
  toolTurn(): Promise<number>;
  /** Kills the baseline and removes its folder at once (for `unload`). */
  disposeSync(): void;
}

/**
 * Starts tool_turn_baseline.ts with the shipped flags, on the same fake model, with the
 * system prompt and tools Daedalus sent in `recorded` (a chat-completions request body).
 */
export async function startBaseline(
  fake: FakeOpenAI,
  recorded: { messages: { role: string; content: string }[]; tools: unknown[]; model: string },
  counter: ByteCounter,
): Promise<Baseline> {
  const home = await Deno.makeTempDir({ prefix: "daedalus-bench-baseline-" });
  const workspace = `${home}/project`;
  await Deno.mkdir(workspace);
  await Deno.writeTextFile(`${workspace}/notes.txt`, NOTES);
  const system = recorded.messages.find((message) => message.role === "system")?.content ?? "";
  await Deno.writeTextFile(
    `${home}/prompt.json`,
    JSON.stringify({ system, tools: recorded.tools, model: recorded.model }),
  );
  const token = crypto.randomUUID();
  const script = new URL("./tool_turn_baseline.ts", import.meta.url).pathname;
  const env = Object.fromEntries(
    Object.entries(Deno.env.toObject()).filter(([name]) => !name.startsWith("DAEDALUS_")),
  );
  const child = new ChildProcess(script, [
    ...["--port", "0", "--home", home, "--model-url", fake.url],
    ...["--prompt", `${home}/prompt.json`, "--token", token],
  ], env);
  const ready = JSON.parse(await child.firstStdoutLine()) as { port: number; pid: number };
  const Socket = counter.webSocket();
  const socket = new Socket(`ws://127.0.0.1:${ready.port}/ws`, {
    headers: { authorization: `Bearer ${token}` },
  }) as unknown as WebSocket;
  await deadline("the baseline socket", new Promise((resolve) => socket.onopen = resolve));
  const pending = new Map<number, (result: Record<string, unknown>) => void>();
  const settledWaiters = new Map<string, (payload: Record<string, unknown>) => void>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data));
    if ("id" in message) return pending.get(message.id)?.(message.result);
    const { type, runId, payload } = message.params;
    if (type === "run.settled") settledWaiters.get(runId)?.(payload);
  });
  let nextId = 1;
  const call = (method: string, params: Record<string, unknown>) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const id = nextId++;
      pending.set(id, (result) => {
        pending.delete(id);
        resolve(result);
      });
      socket.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    });
  return {
    pid: ready.pid,
    async toolTurn() {
      fake.enqueue(...toolTurnResponses());
      const { thread } = await call("thread.create", {
        title: "bench",
        workspace: { rootUri: workspace },
      }) as { thread: { id: string } };
      let resolveSettled!: (payload: Record<string, unknown>) => void;
      const settled = new Promise<Record<string, unknown>>((resolve) => resolveSettled = resolve);
      const started = performance.now();
      // The baseline answers before it runs the turn, so the waiter is set in time.
      const { runId } = await call("turn.start", {
        threadId: thread.id,
        content: "read notes.txt",
        ...PROVIDER,
      }) as { runId: string };
      settledWaiters.set(runId, resolveSettled);
      const payload = await deadline("the baseline's run.settled", settled);
      const elapsed = performance.now() - started;
      settledWaiters.delete(runId);
      if (payload.status !== "completed") {
        throw new Error(`the baseline run settled ${payload.status}: ${payload.errorMessage}`);
      }
      return elapsed;
    },
    disposeSync() {
      socket.close();
      child.kill("SIGKILL");
      removeSyncOrSay(home);
    },
    async [Symbol.asyncDispose]() {
      socket.close();
      await child[Symbol.asyncDispose]();
      await Deno.remove(home, { recursive: true });
    },
  };
}

/** Removes a folder; a process killed a moment ago may still hold it, so say what is left. */
function removeSyncOrSay(path: string) {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch (error) {
    console.error(`could not remove ${path}: ${error}`);
  }
}

/** VmRSS of a process, in MiB. */
export async function rssMiB(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kib = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]);
  return kib / 1024;
}

/**
 * CPU time a process has used so far (user + system, all its threads), in milliseconds;
 * null where `/proc` is not there. Resolution is the kernel's clock tick (10 ms), so sum it
 * over many turns.
 */
export async function cpuMs(pid: number): Promise<number | null> {
  let stat: string;
  try {
    stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  } catch {
    return null;
  }
  // The fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
  return ticks * 10; // USER_HZ is 100 on Linux
}
