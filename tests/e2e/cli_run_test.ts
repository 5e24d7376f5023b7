/**
 * `daedalus run` one-shot, the home opened in the command's own process (no runtime
 * holds it): a text turn, a tool turn, `--json` lines checked against the protocol's
 * schemas, SIGINT mid-stream, the prompt from standard input, usage errors, a Run that
 * needs an approval, `--continue`, `--agent` (binding, switching, an unknown id, the
 * profile's own model), and `threads` / `show` reading what was stored. Every
 * command runs with the shipped flags.
 */
import assert from "node:assert/strict";
import { EventEnvelope, type Turn } from "@daedalus/protocol";
import { Daedalus, daedalus, makeCliHome, MODEL } from "./_cli.ts";

/** The start of an ANSI colour sequence. */
const ESCAPE = "\x1b[";

/** The fake's messages of its `index`-th request. */
function messagesOf(request: { body: unknown } | undefined): { role: string; content: unknown }[] {
  return (request?.body as { messages?: { role: string; content: unknown }[] })?.messages ?? [];
}

Deno.test("run prints a text answer on stdout, nothing else, and exits 0", async () => {
  await using cli = await makeCliHome();
  cli.fake.enqueue({ step: { text: "Hello from the model." } });
  const run = await daedalus(["run", "say hello"], cli.home.env());
  assert.equal(run.code, 0, run.describe());
  assert.equal(run.stdout, "Hello from the model.\n");
  assert.ok(!run.stderr.includes(ESCAPE), "no colours without a terminal");
  const last = messagesOf(cli.fake.requests.at(-1)).at(-1);
  assert.deepEqual(last, { role: "user", content: "say hello" });
});

Deno.test("a tool turn shows the call on stderr, the answer on stdout, and stores the thread", async () => {
  await using cli = await makeCliHome();
  cli.fake.enqueue(
    { step: { toolCalls: [{ id: "c1", name: "read", arguments: { path: "notes.txt" } }] } },
    { step: { text: "The notes say hello." } },
  );
  const run = await daedalus(
    ["run", "read notes.txt", "--workspace", cli.project, "--model", MODEL],
    cli.home.env(),
  );
  assert.equal(run.code, 0, run.describe());
  assert.equal(run.stdout, "The notes say hello.\n");
  assert.match(run.stderr, /→ read \{"path":"notes\.txt"\}/);
  assert.match(run.stderr, /✓/);
  const toolResult = messagesOf(cli.fake.requests[1]).find((m) => m.role === "tool");
  assert.match(String(toolResult?.content), /hello from the notes/);

  const threads = await daedalus(["threads"], cli.home.env());
  assert.equal(threads.code, 0, threads.describe());
  const [line, ...others] = threads.stdout.trimEnd().split("\n");
  assert.equal(others.length, 0, threads.stdout);
  assert.match(line!, /^thread_[0-9a-f]{32} {2}\S+ {2}read notes\.txt$/);
  const threadId = line!.split(" ")[0]!;

  const show = await daedalus(["show", threadId], cli.home.env());
  assert.equal(show.code, 0, show.describe());
  assert.match(show.stdout, /## You\nread notes\.txt/);
  assert.match(show.stdout, /→ read \{"path":"notes\.txt"\}/);
  assert.match(show.stdout, /## fake\/fake-model\nThe notes say hello\./);
  assert.match(show.stdout, new RegExp(`workspace: ${cli.project}`));

  const json = await daedalus(["show", threadId, "--json"], cli.home.env());
  const shown = JSON.parse(json.stdout) as { thread: { id: string }; turns: Turn[] };
  assert.equal(shown.thread.id, threadId);
  assert.deepEqual(
    shown.turns[0]!.runs[0]!.items.map((item) => item.kind),
    ["message", "tool_call", "tool_result", "message"],
  );
});

Deno.test("--json prints protocol events, each valid, then one summary line", async () => {
  await using cli = await makeCliHome();
  cli.fake.enqueue(
    { step: { toolCalls: [{ id: "c1", name: "read", arguments: { path: "notes.txt" } }] } },
    { step: { text: "Done reading." } },
  );
  const run = await daedalus(
    ["run", "read notes.txt", "--json", "--workspace", cli.project],
    cli.home.env(),
  );
  assert.equal(run.code, 0, run.describe());
  const lines = run.stdout.trimEnd().split("\n").map((line) => JSON.parse(line));
  const summary = lines.pop();
  for (const event of lines) {
    const parsed = EventEnvelope.safeParse(event);
    assert.ok(parsed.success, `not a valid event: ${JSON.stringify(event).slice(0, 300)}`);
  }
  const types = lines.map((event) => event.type);
  assert.equal(types[0], "thread.created");
  assert.ok(types.includes("item.delta"), types.join(", "));
  assert.equal(types.at(-1), "run.settled");
  const seqs = lines.map((event) => event.seq);
  assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b), "events in seq order");
  assert.equal(summary.type, "summary");
  assert.equal(summary.status, "completed");
  assert.equal(summary.reasonCode, null);
  assert.equal(summary.threadId, lines[0].threadId);
  assert.equal(summary.runId, lines.at(-1).runId);
  assert.ok(summary.usage === null || typeof summary.usage.totalTokens === "number");
});

Deno.test("SIGINT mid-stream cancels the Run, waits for it to settle, and exits 130", async () => {
  await using cli = await makeCliHome();
  cli.fake.enqueue({
    sse: [
      { data: { choices: [{ index: 0, delta: { content: "Partial answer" } }] } },
      { stall: true },
    ],
  });
  await using child = new Daedalus(["run", "talk slowly", "--json"], cli.home.env());
  await child.waitFor("the first delta", () => child.stdout.includes("Partial answer"));
  child.process.kill("SIGINT");
  const code = await child.exit();
  assert.equal(code, 130, child.describe());
  const lines = child.stdout.trimEnd().split("\n").map((line) => JSON.parse(line));
  const summary = lines.at(-1);
  assert.equal(summary.type, "summary");
  assert.equal(summary.status, "cancelled", child.describe());
  const settled = lines.find((event) => event.type === "run.settled");
  assert.equal(settled?.payload.status, "cancelled");

  // Stored: a later command on the same home reads the Run as cancelled.
  const show = await daedalus(["show", summary.threadId, "--json"], cli.home.env());
  const shown = JSON.parse(show.stdout) as { turns: Turn[] };
  assert.equal(shown.turns[0]!.runs[0]!.status, "cancelled");
});

Deno.test("run - reads the prompt from standard input", async () => {
  await using cli = await makeCliHome();
  cli.fake.enqueue({ step: { text: "Got it." } });
  const diff = "diff --git a/x b/x\n+a new line\n";
  const run = await daedalus(["run", "-"], cli.home.env(), diff);
  assert.equal(run.code, 0, run.describe());
  assert.equal(run.stdout, "Got it.\n");
  assert.deepEqual(messagesOf(cli.fake.requests.at(-1)).at(-1), { role: "user", content: diff });
});

Deno.test("usage errors exit 2 with one line and start nothing", async () => {
  await using cli = await makeCliHome();
  const cases: [string[], RegExp][] = [
    [["run", "hi", "--timeout", "soon"], /--timeout "soon" is not a number of seconds/],
    [["run", "hi", "--bogus"], /Unknown option --bogus/],
    [["run", "hi", "--permission", "yolo"], /--permission "yolo" is not one of/],
    [["run", "hi", "--model", "nope"], /--model "nope" is not PROVIDER\/MODEL/],
    [
      ["run", "hi", "--model", "fake/other"],
      /--model fake\/other is not an enabled model; enabled: fake\/fake-model/,
    ],
    [["run", "hi", "--thread", "thread_0123456789abcdef0123456789abcdef"], /no such thread/],
    [["run", "hi", "--continue"], /no thread to continue/],
    [
      ["run", "hi", "--attach", "/nonexistent/file.png"],
      /--attach \/nonexistent\/file\.png: no such file/,
    ],
    [["run", "-"], /prompt on standard input is empty/],
    [["frobnicate"], /Unknown command "frobnicate"/],
  ];
  for (const [args, message] of cases) {
    const run = await daedalus(args, cli.home.env(), args.includes("-") ? "" : null);
    assert.equal(run.code, 2, `${args.join(" ")}\n${run.describe()}`);
    assert.match(run.stderr, message, args.join(" "));
    assert.equal(run.stderr.trimEnd().split("\n").length, 1, `one line:\n${run.stderr}`);
    assert.equal(run.stdout, "", args.join(" "));
  }
  assert.equal(cli.fake.requests.length, 0, "no model was called");
});

Deno.test("a Run that needs an approval under ask is cancelled with the approval and --permission named", async () => {
  await using cli = await makeCliHome();
  cli.fake.enqueue({
    step: {
      toolCalls: [{ id: "c1", name: "process_start", arguments: { command: "touch ran.txt" } }],
    },
  });
  const run = await daedalus(
    ["run", "touch a file", "--json", "--workspace", cli.project],
    cli.home.env(),
  );
  assert.equal(run.code, 1, run.describe());
  assert.match(run.stderr, /waits for an approval/);
  assert.match(run.stderr, /process_start/);
  assert.match(run.stderr, /touch ran\.txt/);
  assert.match(run.stderr, /--permission full_access/);
  const summary = JSON.parse(run.stdout.trimEnd().split("\n").at(-1)!);
  assert.deepEqual(
    { status: summary.status, reasonCode: summary.reasonCode },
    { status: "cancelled", reasonCode: "approval_required" },
  );
  assert.equal(await Deno.stat(`${cli.project}/ran.txt`).catch(() => null), null, "not run");
});

Deno.test("--continue sends the next turn to the newest thread, with its history", async () => {
  await using cli = await makeCliHome();
  cli.fake.enqueue({ step: { text: "First answer." } }, { step: { text: "Second answer." } });
  const first = await daedalus(["run", "first question", "--json"], cli.home.env());
  assert.equal(first.code, 0, first.describe());
  const second = await daedalus(["run", "second question", "--continue", "--json"], cli.home.env());
  assert.equal(second.code, 0, second.describe());
  const summaryOf = (out: string) => JSON.parse(out.trimEnd().split("\n").at(-1)!);
  assert.equal(summaryOf(second.stdout).threadId, summaryOf(first.stdout).threadId);
  const contents = messagesOf(cli.fake.requests[1]).map((m) => `${m.role}: ${m.content}`);
  assert.deepEqual(contents.slice(-3), [
    "user: first question",
    "assistant: First answer.",
    "user: second question",
  ]);
  const threads = await daedalus(["threads", "--json"], cli.home.env());
  assert.equal(threads.stdout.trimEnd().split("\n").length, 1, threads.stdout);
});

Deno.test("--timeout cancels a Run that takes too long: exit 1, timed_out", async () => {
  await using cli = await makeCliHome();
  cli.fake.enqueue({
    sse: [{ data: { choices: [{ index: 0, delta: { content: "Thinking" } }] } }, { stall: true }],
  });
  const run = await daedalus(["run", "never finish", "--json", "--timeout", "1"], cli.home.env());
  assert.equal(run.code, 1, run.describe());
  assert.match(run.stderr, /--timeout 1 s reached/);
  const summary = JSON.parse(run.stdout.trimEnd().split("\n").at(-1)!);
  assert.deepEqual(
    { status: summary.status, reasonCode: summary.reasonCode },
    { status: "cancelled", reasonCode: "timed_out" },
  );
});

Deno.test("--attach records a text file on the user message and names it to the model", async () => {
  await using cli = await makeCliHome();
  cli.fake.enqueue({ step: { text: "Seen." } });
  const file = `${cli.project}/spec.md`;
  await Deno.writeTextFile(file, "# Spec\nThe attached words.\n");
  const run = await daedalus(["run", "what does it say?", "--attach", file], cli.home.env());
  assert.equal(run.code, 0, run.describe());
  // The runtime names a text attachment to the model (which reads it with `read`).
  assert.match(
    JSON.stringify(messagesOf(cli.fake.requests.at(-1))),
    /\[Attached text: [^\]]*\/spec\.md \(text\/markdown, 27 bytes\)/,
  );
});

/** The tool names the fake was offered in a request. */
function toolsOf(request: { body: unknown } | undefined): string[] {
  const tools = (request?.body as { tools?: { function: { name: string } }[] })?.tools ?? [];
  return tools.map((tool) => tool.function.name);
}

Deno.test("--agent binds a new thread, switches a continued one, and an unknown id exits 2", async () => {
  await using cli = await makeCliHome();
  const unknown = await daedalus(["run", "hi", "--agent", "nope"], cli.home.env());
  assert.equal(unknown.code, 2, unknown.describe());
  assert.match(
    unknown.stderr,
    /--agent nope: no such agent profile; profiles: build, plan, explore/,
  );
  assert.equal(unknown.stderr.trimEnd().split("\n").length, 1, `one line:\n${unknown.stderr}`);
  const none = await daedalus(["threads", "--json"], cli.home.env());
  assert.equal(none.stdout.trim(), "", "an unknown --agent leaves no thread behind");

  cli.fake.enqueue({ step: { text: "A plan." } }, { step: { text: "Built." } });
  const plan = await daedalus(["run", "plan it", "--agent", "plan", "--json"], cli.home.env());
  assert.equal(plan.code, 0, plan.describe());
  const { threadId } = JSON.parse(plan.stdout.trimEnd().split("\n").at(-1)!);
  const shown = JSON.parse((await daedalus(["show", threadId, "--json"], cli.home.env())).stdout);
  assert.equal(shown.thread.agentId, "plan", "the new thread is bound to plan");
  const planTools = toolsOf(cli.fake.requests[0]);
  assert.ok(planTools.includes("read"), `plan was offered ${planTools}`);
  for (const tool of ["write", "edit", "process_start"]) {
    assert.ok(!planTools.includes(tool), `plan was offered ${tool}: ${planTools}`);
  }

  const build = await daedalus(
    ["run", "build it", "--continue", "--agent", "build", "--json"],
    cli.home.env(),
  );
  assert.equal(build.code, 0, build.describe());
  assert.equal(JSON.parse(build.stdout.trimEnd().split("\n").at(-1)!).threadId, threadId);
  const switched = JSON.parse(
    (await daedalus(["show", threadId, "--json"], cli.home.env())).stdout,
  );
  assert.equal(switched.thread.agentId, "build", "--continue --agent switched the thread");
  assert.ok(toolsOf(cli.fake.requests[1]).includes("write"), "build is offered write");
});

Deno.test("--agent without --model runs the profile's own model", async () => {
  await using cli = await makeCliHome();
  // Two models: without a profile's model `run` would have to be told which one.
  const config = await Deno.readTextFile(`${cli.home.home}/config.yaml`);
  await Deno.writeTextFile(
    `${cli.home.home}/config.yaml`,
    [
      config.trimEnd(),
      "      other-model:",
      "        context_window: 65536",
      "agents:",
      "  profiles:",
      "    - id: second",
      "      name: Second",
      "      permission: ask",
      "      model: { providerId: fake, modelId: other-model }",
      "      memory: { recall: false, memoryFile: false }",
      "",
    ].join("\n"),
  );
  const ambiguous = await daedalus(["run", "hi"], cli.home.env());
  assert.equal(ambiguous.code, 2, ambiguous.describe());
  assert.match(ambiguous.stderr, /Several models are enabled/);
  cli.fake.enqueue({ step: { text: "From the other model." } });
  const run = await daedalus(["run", "hi", "--agent", "second"], cli.home.env());
  assert.equal(run.code, 0, run.describe());
  assert.equal(run.stdout, "From the other model.\n");
  assert.equal((cli.fake.requests[0]?.body as { model?: string }).model, "other-model");

  // A default model in Settings settles it too: the runtime applies it to the turn.
  await Deno.writeTextFile(
    `${cli.home.home}/config.yaml`,
    (await Deno.readTextFile(`${cli.home.home}/config.yaml`)).trimEnd() +
      "\n  default_model: { provider_id: fake, model_id: other-model }\n",
  );
  cli.fake.enqueue({ step: { text: "From the default model." } });
  const defaulted = await daedalus(["run", "hi"], cli.home.env());
  assert.equal(defaulted.code, 0, defaulted.describe());
  assert.equal(defaulted.stdout, "From the default model.\n");
  assert.equal((cli.fake.requests[1]?.body as { model?: string }).model, "other-model");
});
