import assert from "node:assert/strict";
import { readRunRequest } from "./run_options.ts";
import { UsageError } from "./args.ts";
import type { OptionValue } from "./args.ts";

const context = { cwd: "/work/here", stdinIsTerminal: true };
const THREAD = "thread_0123456789abcdef0123456789abcdef";

Deno.test("readRunRequest reads each flag into the request", () => {
  const cases: [string[], Record<string, OptionValue>, Record<string, unknown>][] = [
    [["hi"], {}, {
      prompt: { kind: "text", text: "hi" },
      model: null,
      thread: { kind: "new", workspace: null },
      agent: null,
      permission: null,
      json: false,
      attachments: [],
      timeoutMs: null,
    }],
    [["-"], {}, { prompt: { kind: "stdin" } }],
    [["hi"], { model: "deepseek/deepseek-chat" }, {
      model: { providerId: "deepseek", modelId: "deepseek-chat" },
    }],
    [["hi"], { model: "local/qwen2.5:7b/q4" }, {
      model: { providerId: "local", modelId: "qwen2.5:7b/q4" },
    }],
    [["hi"], { thread: THREAD }, { thread: { kind: "id", threadId: THREAD } }],
    [["hi"], { continue: true }, { thread: { kind: "newest" } }],
    [["hi"], { agent: "plan" }, { agent: "plan", thread: { kind: "new", workspace: null } }],
    [["hi"], { agent: "my-copy_2", continue: true }, {
      agent: "my-copy_2",
      thread: { kind: "newest" },
    }],
    [["hi"], { workspace: "proj" }, { thread: { kind: "new", workspace: "/work/here/proj" } }],
    [["hi"], { workspace: "/abs" }, { thread: { kind: "new", workspace: "/abs" } }],
    [["hi"], { permission: "full_access" }, { permission: "full_access" }],
    [["hi"], { json: true }, { json: true }],
    [["hi"], { attach: ["a.png", "/b.txt"] }, { attachments: ["/work/here/a.png", "/b.txt"] }],
    [["hi"], { timeout: "1.5" }, { timeoutMs: 1500 }],
    [["hi"], { timeout: "86400" }, { timeoutMs: 86_400_000 }],
  ];
  for (const [positionals, values, expected] of cases) {
    const request = readRunRequest(positionals, values, context) as unknown as Record<
      string,
      unknown
    >;
    for (const [key, value] of Object.entries(expected)) {
      assert.deepEqual(request[key], value, `${JSON.stringify([positionals, values])}: ${key}`);
    }
  }
  assert.deepEqual(
    readRunRequest([], {}, { ...context, stdinIsTerminal: false }).prompt,
    { kind: "stdin" },
    "a missing prompt is read from a pipe",
  );
});

Deno.test("readRunRequest refuses bad values naming the flag and what is allowed", () => {
  const cases: [string[], Record<string, OptionValue>, RegExp][] = [
    [[], {}, /run needs a PROMPT, or - to read it from standard input/],
    [["  "], {}, /The prompt is empty/],
    [["hi"], { model: "gpt-4" }, /--model "gpt-4" is not PROVIDER\/MODEL/],
    [["hi"], { model: "Big/model" }, /is not PROVIDER\/MODEL/],
    [["hi"], { model: "p/" }, /is not PROVIDER\/MODEL/],
    [["hi"], { thread: "t1" }, /--thread "t1" is not a thread id/],
    [["hi"], { thread: THREAD, continue: true }, /--thread and --continue exclude each other/],
    [["hi"], { continue: true, workspace: "w" }, /--workspace is for a new thread/],
    [["hi"], { agent: "Plan" }, /--agent "Plan" is not an agent profile id/],
    [["hi"], { agent: "-x" }, /--agent "-x" is not an agent profile id/],
    [["hi"], { agent: "a".repeat(65) }, /is not an agent profile id/],
    [["hi"], { permission: "all" }, /--permission "all" is not one of read_only, ask/],
    [["hi"], { timeout: "0" }, /--timeout "0" is not a number of seconds above 0/],
    [["hi"], { timeout: "-1" }, /--timeout "-1"/],
    [["hi"], { timeout: "1e3" }, /--timeout "1e3"/],
    [["hi"], { timeout: "86401" }, /at most 86400/],
    [["hi"], { attach: Array.from({ length: 9 }, (_, i) => `f${i}`) }, /at most 8/],
  ];
  for (const [positionals, values, message] of cases) {
    assert.throws(
      () => readRunRequest(positionals, values, context),
      (error) => {
        assert.ok(error instanceof UsageError, String(error));
        assert.match(error.message, message);
        assert.equal(error.command, "run");
        return true;
      },
      JSON.stringify([positionals, values]),
    );
  }
});
