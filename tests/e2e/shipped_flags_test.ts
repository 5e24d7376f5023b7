/**
 * The shipped permissions are the tested permissions: one definition of the runtime's
 * Deno flags (scripts/runtime_flags.ts) used by `deno task start`/`dev` and by every
 * spawned test runtime, flags that reach any provider host, and a real `daedalus serve`
 * started with them completing a tool turn against a model server reached as `localhost`.
 */
import assert from "node:assert/strict";
import { createHttpClient } from "@daedalus/client";
import {
  assertShippedFlags,
  makeTempHome,
  REPO_ROOT,
  RUNTIME_FLAGS,
  RUNTIME_RUN_FLAGS,
  startShippedRuntime,
} from "./_harness.ts";
import { openClient } from "./_clients.ts";

Deno.test("deno task start and dev splice in the one flag list, and it prints exactly that", async () => {
  const config = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}deno.json`)) as {
    tasks: Record<string, string>;
  };
  for (const task of ["start", "dev", "run"]) {
    const serve = (config.tasks[task] ?? "").split("&&").at(-1)?.trim() ?? "";
    assert.match(
      serve,
      /^deno run (--watch )?\$\(deno run scripts\/runtime_flags\.ts\) packages\/runtime\/main\.ts (serve|run)$/,
      `${task} must run the runtime with the shipped flags only`,
    );
  }
  const printed = await new Deno.Command(Deno.execPath(), {
    args: ["run", "scripts/runtime_flags.ts"],
    cwd: REPO_ROOT,
    stdout: "piped",
  }).output();
  assert.equal(new TextDecoder().decode(printed.stdout).trim(), RUNTIME_RUN_FLAGS.join(" "));
  assert.deepEqual(RUNTIME_RUN_FLAGS.slice(1), [...RUNTIME_FLAGS]);
  // node_modules is installed before the runtime starts: it is run in manual mode.
  for (const task of ["start", "dev", "run"]) {
    assert.match(config.tasks[task] ?? "", /^deno install --frozen -q && /, task);
  }
  for (const flag of RUNTIME_FLAGS) {
    assert.doesNotMatch(flag, /^-A$|--allow-all|--allow-ffi|--allow-sys|--allow-import/);
  }
});

Deno.test("the flags let the runtime reach any provider host, and no more than the README says", async () => {
  const probe = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    await Deno.writeTextFile(
      probe,
      `const q = (d) => Deno.permissions.querySync(d).state;
console.log(JSON.stringify({
  deepseek: q({ name: "net", host: "api.deepseek.com:443" }),
  anyHost: q({ name: "net", host: "models.example.org:8443" }),
  localhost: q({ name: "net", host: "localhost:11434" }),
  loopback: q({ name: "net", host: "127.0.0.1:1" }),
  ffi: q({ name: "ffi" }),
  sys: q({ name: "sys", kind: "hostname" }),
  import: q({ name: "import", host: "example.org" }),
}));`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", ...RUNTIME_FLAGS, probe],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const states = JSON.parse(new TextDecoder().decode(out.stdout));
    assert.deepEqual(
      { deepseek: states.deepseek, anyHost: states.anyHost, localhost: states.localhost },
      { deepseek: "granted", anyHost: "granted", localhost: "granted" },
    );
    assert.equal(states.loopback, "granted");
    assert.notEqual(states.ffi, "granted", "--allow-ffi must never be shipped");
    assert.notEqual(states.sys, "granted");
  } finally {
    await Deno.remove(probe);
  }
});

Deno.test("assertShippedFlags refuses a runtime spawned with -A", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--eval", "await new Promise((ok) => setTimeout(ok, 20_000))"],
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    await assert.rejects(assertShippedFlags(child.pid), /must run with the shipped flags/);
  } finally {
    killIfRunning(child);
    await child.status;
  }
});

/** SIGKILL, unless it exited already (a loaded machine can end it early). */
function killIfRunning(child: Deno.ChildProcess): void {
  try {
    child.kill("SIGKILL");
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
}

/** A model server that answers a `list` tool call, then a text; tool-less calls get a title. */
function startToolModel(): { port: number; requests: unknown[]; close: () => Promise<void> } {
  const requests: unknown[] = [];
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${
      JSON.stringify({
        id: "c",
        object: "chat.completion.chunk",
        created: 1,
        model: "tool-model",
        choices: [{ index: 0, delta, finish_reason: finish }],
      })
    }\n\n`;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json();
    requests.push(body);
    const sse = (frames: string[]) =>
      new Response(frames.join("") + "data: [DONE]\n\n", {
        headers: { "content-type": "text/event-stream" },
      });
    if (!body.tools?.length) return sse([chunk({ content: "A title" }), chunk({}, "stop")]);
    const toolDone = body.messages.at(-1)?.role === "tool";
    if (toolDone) return sse([chunk({ content: "Listed the workspace." }), chunk({}, "stop")]);
    return sse([
      chunk({
        tool_calls: [{
          index: 0,
          id: "call_1",
          type: "function",
          function: { name: "list", arguments: '{"path":"."}' },
        }],
      }),
      chunk({}, "tool_calls"),
    ]);
  });
  return {
    port: (server.addr as Deno.NetAddr).port,
    requests,
    close: () => server.shutdown(),
  };
}

Deno.test("the shipped runtime completes a tool turn against a provider reached as localhost", async () => {
  await using home = await makeTempHome();
  const model = startToolModel();
  try {
    await using server = await startShippedRuntime(home);
    const token = await server.token();
    const http = createHttpClient({ url: server.url, token });
    await http.call("provider.configure", {
      kind: "custom",
      providerId: "local",
      displayName: "Local",
      baseUrl: `http://localhost:${model.port}/v1`,
      models: [{ id: "tool-model", displayName: "Tool model", contextWindow: 65536 }],
    });
    const workspace = `${home.workspacesRoot}/project`;
    await Deno.mkdir(workspace);
    await Deno.writeTextFile(`${workspace}/notes.txt`, "hello\n");
    await using recording = await openClient(server.url, token);
    const { thread } = await recording.client.call("thread.create", {
      title: "shipped",
      workspace: { rootUri: workspace },
    });
    const { runId } = await recording.client.call("turn.start", {
      threadId: thread.id,
      content: "list the files",
      providerId: "local",
      modelId: "tool-model",
    });
    const settled = await recording.waitForEvent(
      "the run to settle",
      (event) => event.type === "run.settled" && event.runId === runId,
    );
    assert.deepEqual(
      { status: settled.payload.status, reasonCode: settled.payload.reasonCode },
      { status: "completed", reasonCode: null },
    );
    const result = recording.events.find((event) =>
      event.type === "item.completed" && event.runId === runId &&
      (event.payload as { item: { kind: string } }).item.kind === "tool_result"
    );
    assert.match(JSON.stringify(result?.payload), /notes\.txt/);
  } finally {
    await model.close();
  }
});

const MIB = 1024 * 1024;

Deno.test("under the shipped V8 flags the between-Runs collection gives emptied heap pages back", async () => {
  // A child with the shipped flags (the test runner has no gc): it fills the heap with
  // small garbage between survivors, then collects once through exposedGc.
  const script = `
    import { exposedGc } from ${
    JSON.stringify(`file://${REPO_ROOT}packages/runtime/scheduler/heap_trim.ts`)
  };
    // Small objects that live long enough to reach the old generation, one in 16 kept:
    // the survivors are spread over the pages, so only a compaction can empty them.
    let all = [];
    for (let i = 0; i < 1_000_000; i++) all.push({ i, text: "x" + i });
    const kept = all.filter((_, i) => i % 16 === 0);
    all = null;
    const before = Deno.memoryUsage().heapTotal;
    exposedGc()();
    console.log(JSON.stringify({ before, after: Deno.memoryUsage().heapTotal, kept: kept.length }));
  `;
  const v8Flags = RUNTIME_RUN_FLAGS.filter((flag) => flag.startsWith("--v8-flags="));
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-check", ...v8Flags, script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  const { before, after } = JSON.parse(new TextDecoder().decode(output.stdout));
  assert.ok(
    after < before / 2,
    `heap total ${(before / MIB).toFixed(1)} → ${
      (after / MIB).toFixed(1)
    } MiB: the emptied pages were kept (a plain collection keeps about three quarters)`,
  );
});
