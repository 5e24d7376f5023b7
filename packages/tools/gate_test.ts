import assert from "node:assert/strict";
import { join } from "node:path";
import { z } from "zod";
import type { ExecutionPolicy } from "@daedalus/protocol";
import { createTestWorkspace } from "./_testing.ts";
import { executeTool } from "./execute.ts";
import { createRunGate, type RunGateOptions } from "./gate.ts";
import { defineTool, type ToolContext, type ToolDefinition, ToolError } from "./tool.ts";
import { readTool } from "./files/read.ts";
import { writeTool } from "./files/write.ts";
import { processStartTool } from "./processes/process_start.ts";
import { createCircuitBreakers } from "./governance/circuit_breaker.ts";
import { BREAKER_CONSECUTIVE_FAILURES, BREAKER_MIN_CALLS, BREAKER_OPEN_MS } from "./limits.ts";

/** Failures in a row that open a breaker: the failure rate's minimum (all failed) or the run. */
const OPENS_AFTER = Math.min(BREAKER_MIN_CALLS, BREAKER_CONSECUTIVE_FAILURES);

async function run(tool: ToolDefinition<never>, args: unknown, context: ToolContext) {
  return await executeTool(tool as ToolDefinition<unknown>, args, {
    ...context,
    facts: { fileChanges: [], processes: [] },
  });
}

/** A workspace with `a.txt`, and a context whose gate is built from `options`. */
async function gated(
  executionPolicy: ExecutionPolicy,
  options: Omit<RunGateOptions, "executionPolicy"> = {},
) {
  const ws = await createTestWorkspace({ executionPolicy });
  await ws.write("a.txt", "alpha\n");
  const gate = createRunGate({ executionPolicy, homeDir: ws.base, ...options });
  return { ws, context: { ...ws.context, gate } };
}

/** A read-risk tool that counts its runs and answers as `answer` says. */
function counter(
  answer: (n: number) => Promise<{ content: string }> | never = () =>
    Promise.resolve({ content: "same" }),
) {
  const tool = defineTool({
    id: "counter",
    description: "counts",
    params: z.object({ n: z.number().optional() }),
    mutating: false,
    risk: "read",
    run: () => answer(++tool.runs),
  }) as ToolDefinition<{ n?: number }> & { runs: number };
  tool.runs = 0;
  return tool;
}

Deno.test("with a gate, the three modes decide as before and word refusals as before", async () => {
  const cases: Array<[ExecutionPolicy, ToolDefinition<never>, unknown, string | undefined]> = [
    ["read_only", readTool as never, { path: "a.txt" }, undefined],
    ["read_only", writeTool as never, { path: "b.txt", content: "x" }, "permission_denied"],
    ["workspace_write", writeTool as never, { path: "b.txt", content: "x" }, undefined],
    ["workspace_write", processStartTool as never, { command: "true" }, "permission_denied"],
    ["full_access", writeTool as never, { path: "c.txt", content: "x" }, undefined],
  ];
  for (const [policy, tool, args, expected] of cases) {
    const { ws, context } = await gated(policy);
    await using _ = ws;
    const gatedResult = await run(tool, args, context);
    const plain = await run(tool, args, { ...ws.context });
    assert.equal(gatedResult.errorCode, expected, `${policy} ${tool.id}: ${gatedResult.content}`);
    assert.equal(
      plain.errorCode === "file_exists" ? undefined : plain.errorCode,
      expected,
      `${policy} ${tool.id} without a gate (the preset alone): ${plain.content}`,
    );
  }
  const { ws, context } = await gated("read_only");
  await using _ = ws;
  const refused = await run(writeTool as never, { path: "b.txt", content: "x" }, context);
  assert.equal(refused.content, "permission_denied: write writes, and this run is read_only");
  const outside = await run(readTool as never, { path: "/etc/hostname" }, context);
  assert.equal(outside.errorCode, "permission_denied", outside.content);
  assert.match(
    outside.content,
    /\/etc\/hostname is outside the workspace, and this run is read_only/,
  );
});

Deno.test("validation comes first: bad arguments of a refused tool are invalid_arguments", async () => {
  const { ws, context } = await gated("read_only");
  await using _ = ws;
  const result = await run(writeTool as never, { path: 3 }, context);
  assert.equal(result.errorCode, "invalid_arguments", result.content);
});

Deno.test("a config rule's deny names the rule; its ask is approval_required", async () => {
  const { ws, context } = await gated("full_access", {
    configRules: [
      { tool: "read", pattern: "secrets/**", decision: "deny" },
      { tool: "write", decision: "ask" },
    ],
  });
  await using _ = ws;
  await ws.write("secrets/key.txt", "k\n");
  const denied = await run(readTool as never, { path: "secrets/key.txt" }, context);
  assert.equal(denied.errorCode, "permission_denied", denied.content);
  assert.match(denied.content, /permission rule config\[0\] \{tool: read, pattern: secrets\/\*\*/);
  const allowed = await run(readTool as never, { path: "a.txt" }, context);
  assert.equal(allowed.isError, undefined, `a read no rule denies runs: ${allowed.content}`);
  const asked = await run(writeTool as never, { path: "n.txt", content: "x" }, context);
  assert.equal(asked.errorCode, "approval_required", asked.content);
  assert.match(asked.content, /needs the user's approval \(permission rule config\[1\]/);
  assert.match(asked.content, /cannot ask for it/);
  await assert.rejects(() => Deno.stat(join(ws.root, "n.txt")), Deno.errors.NotFound);
});

Deno.test("a config rule that is not valid, or an unreadable config, refuses every call", async () => {
  const cases: Array<[Omit<RunGateOptions, "executionPolicy">, string, RegExp]> = [
    [
      { configRules: [{ tool: "nope", decision: "allow" }] },
      "invalid_permission_rule",
      /config\[0\]/,
    ],
    [{ configRules: [{ tool: "read", decision: "maybe" }] }, "invalid_permission_rule", /decision/],
    [{ configProblem: "config.yaml is not YAML" }, "permission_config_invalid", /not YAML/],
  ];
  for (const [options, code, text] of cases) {
    const { ws, context } = await gated("full_access", options);
    await using _ = ws;
    const result = await run(readTool as never, { path: "a.txt" }, context);
    assert.equal(result.errorCode, code, result.content);
    assert.match(result.content, text);
    assert.match(result.content, /refused until config\.yaml's permissions section is fixed/);
  }
});

Deno.test("a high-risk command is refused even under full_access, unless switched to allow", async () => {
  for (
    const [command, highRiskCommands, expected] of [
      ["rm -rf ~", "ask", "high_risk_command"],
      ["sudo ls", "ask", "high_risk_command"],
      ["echo hi", "ask", "tool_unavailable"],
      ["rm -rf ~", "allow", "tool_unavailable"],
    ] as const
  ) {
    // No process capability: an admitted call fails tool_unavailable, so nothing runs.
    const { ws, context } = await gated("full_access", { highRiskCommands });
    await using _ = ws;
    const result = await run(processStartTool as never, { command }, context);
    assert.equal(result.errorCode, expected, `${command} (${highRiskCommands}): ${result.content}`);
    if (expected === "high_risk_command") {
      assert.match(result.content, /needs the user's approval/, result.content);
    }
  }
});

Deno.test("a call repeated with the same result is refused, then the Run is told to stop", async () => {
  const tool = counter();
  const { ws, context } = await gated("full_access");
  await using _ = ws;
  const codes: Array<string | undefined> = [];
  for (let i = 0; i < 6; i++) codes.push((await run(tool as never, { n: 1 }, context)).errorCode);
  assert.deepEqual(codes, [
    undefined,
    undefined,
    undefined,
    "repeated_call",
    "loop_detected",
    "loop_detected",
  ]);
  assert.equal(tool.runs, 3, "refused calls did not run");
  const other = await run(tool as never, { n: 2 }, context);
  assert.equal(other.isError, undefined, "another call still runs");
  const ungated = await run(tool as never, { n: 1 }, ws.context);
  assert.equal(ungated.isError, undefined, "a context without a gate has no loop detector");
});

Deno.test("waiting on a command that is still running is not a loop; on one that ended it is", async () => {
  let state = "running";
  const wait = defineTool({
    id: "process_wait",
    description: "waits",
    params: z.object({ processId: z.string() }),
    mutating: false,
    risk: "process",
    run: () =>
      Promise.resolve({ content: `(still running) [${state}] (no output)`, details: { state } }),
  });
  const { ws, context } = await gated("full_access");
  await using _ = ws;
  const codes: Array<string | undefined> = [];
  for (let i = 0; i < 8; i++) {
    codes.push((await run(wait as never, { processId: "p" }, context)).errorCode);
  }
  assert.deepEqual(codes, Array(8).fill(undefined), "a silent build may be waited on for long");
  state = "exited";
  const after: Array<string | undefined> = [];
  for (let i = 0; i < 5; i++) {
    after.push((await run(wait as never, { processId: "p" }, context)).errorCode);
  }
  assert.deepEqual(after, [undefined, undefined, undefined, "repeated_call", "loop_detected"]);
});

Deno.test("reading a thread whose Run is still active is waiting too (a sub-agent's answer)", async () => {
  let activeRun = true;
  const read = defineTool({
    id: "thread_read",
    description: "reads",
    params: z.object({ threadId: z.string() }),
    mutating: false,
    risk: "read",
    run: () => Promise.resolve({ content: "(still active)", details: { activeRun } }),
  });
  const { ws, context } = await gated("full_access");
  await using _ = ws;
  const codes: Array<string | undefined> = [];
  for (let i = 0; i < 8; i++) {
    codes.push((await run(read as never, { threadId: "t" }, context)).errorCode);
  }
  assert.deepEqual(codes, Array(8).fill(undefined));
  activeRun = false;
  const after: Array<string | undefined> = [];
  for (let i = 0; i < 4; i++) {
    after.push((await run(read as never, { threadId: "t" }, context)).errorCode);
  }
  assert.deepEqual(after, [undefined, undefined, undefined, "repeated_call"]);
});

Deno.test("a tool that keeps failing opens its breaker; after the wait one probe closes it", async () => {
  let now = 1_000_000;
  const breakers = createCircuitBreakers({ now: () => now });
  let healthy = false;
  const tool = counter(() => {
    if (!healthy) throw new ToolError("tool_failed", "counter is down");
    return Promise.resolve({ content: "up" });
  });
  const { ws, context } = await gated("full_access", { breakers });
  await using _ = ws;
  // Distinct arguments each time, so the loop detector has nothing to say.
  let n = 0;
  const call = () => run(tool as never, { n: n++ }, context);
  for (let i = 0; i < OPENS_AFTER; i++) {
    assert.equal((await call()).errorCode, "tool_failed", `failure ${i + 1} runs`);
  }
  const fast = await call();
  assert.equal(fast.errorCode, "circuit_open", fast.content);
  assert.match(fast.content, /counter/, "the refusal names the tool");
  assert.equal(tool.runs, OPENS_AFTER, "an open breaker runs nothing");
  healthy = true;
  now += BREAKER_OPEN_MS + 1;
  const probe = await call();
  assert.equal(probe.isError, undefined, `the probe runs and succeeds: ${probe.content}`);
  const after = await call();
  assert.equal(after.isError, undefined, "the closed breaker lets calls through");
  assert.equal(breakers.snapshot()[0]?.state, "closed");
  const window = breakers.snapshot()[0]?.callsInWindow;
  const invalid = await run(tool as never, { n: "x" }, context);
  assert.equal(invalid.errorCode, "invalid_arguments", "the model's mistake");
  assert.equal(breakers.snapshot()[0]?.callsInWindow, window, "never reaches the breaker");
});

Deno.test("an MCP server's tools share one breaker: a server that times out fails them all", async () => {
  const breakers = createCircuitBreakers({ now: () => 1_000_000 });
  const mcpTool = (name: string, code: string) => ({
    ...defineTool({
      id: `mcp__srv__${name}`,
      description: name,
      params: z.object({ n: z.number() }),
      mutating: false,
      risk: "process",
      run: () => Promise.reject(new ToolError(code, `${name} failed`)),
    }),
    mcp: { server: "srv", tool: name },
  });
  const slow = mcpTool("slow", "mcp_timeout");
  const other = mcpTool("other", "mcp_timeout");
  const answered = mcpTool("answered", "mcp_tool_error");
  const { ws, context } = await gated("full_access", { breakers });
  await using _ = ws;
  let n = 0;
  // A tool answering with errors is a working server: nothing counts.
  for (let i = 0; i < OPENS_AFTER + 2; i++) {
    assert.equal((await run(answered as never, { n: n++ }, context)).errorCode, "mcp_tool_error");
  }
  assert.equal(breakers.snapshot()[0]?.state ?? "closed", "closed");
  for (let i = 0; i < OPENS_AFTER; i++) {
    const tool = i % 2 === 0 ? slow : other;
    assert.equal((await run(tool as never, { n: n++ }, context)).errorCode, "mcp_timeout");
  }
  const refused = await run(answered as never, { n: n++ }, context);
  assert.equal(refused.errorCode, "circuit_open", "the server's breaker is open for every tool");
  assert.deepEqual(breakers.snapshot().map((b) => [b.key, b.state]), [["mcp:srv", "open"]]);
});

Deno.test("with askUser, a verdict that asks is an approval: reason, summary and target, nothing run", async () => {
  const { ws, context } = await gated("ask", { askUser: true });
  await using _ = ws;
  const cases: Array<[ToolDefinition<never>, unknown, string, string, string | null]> = [
    [
      processStartTool as never,
      { command: "npm test" },
      "permission_ask",
      "approval_required",
      "npm test",
    ],
    [
      processStartTool as never,
      { command: "sudo ls" },
      "high_risk_command",
      "high_risk_command",
      "sudo ls",
    ],
    [
      readTool as never,
      { path: "/etc/hostname" },
      "permission_ask",
      "approval_required",
      "/etc/hostname",
    ],
  ];
  for (const [tool, args, reasonCode, errorCode, target] of cases) {
    const result = await run(tool, args, context);
    const what = `${tool.id} ${JSON.stringify(args)}`;
    assert.equal(result.errorCode, errorCode, `${what}: ${result.content}`);
    assert.equal(result.awaitsApproval?.reasonCode, reasonCode, what);
    assert.equal(result.awaitsApproval?.target, target, what);
    assert.ok((result.awaitsApproval?.summary ?? "").includes(target ?? ""), what);
    assert.match(result.content, /waits for the user's answer/, what);
  }
  const inside = await run(writeTool as never, { path: "n.txt", content: "x" }, context);
  assert.equal(
    inside.isError,
    undefined,
    `ask runs writes inside the workspace: ${inside.content}`,
  );
  assert.equal(inside.awaitsApproval, undefined);
});

Deno.test("an approved call passes the stage that asked, and only that one", async () => {
  const { ws, context } = await gated("ask", { askUser: true });
  await using _ = ws;
  const outside = join(ws.base, "outside.txt");
  await Deno.writeTextFile(outside, "o\n");
  const read = await run(readTool as never, { path: outside }, {
    ...context,
    approved: "permission_ask",
  });
  assert.equal(read.isError, undefined, `allowed once, the read runs: ${read.content}`);
  // A high-risk command the rules also ask about asks once, as high-risk; a permission_ask
  // answer does not wave it through, a high_risk_command answer does (no process
  // capability here: an admitted call fails tool_unavailable, so nothing runs).
  const command = { command: "sudo ls" };
  const byRule = await run(processStartTool as never, command, {
    ...context,
    approved: "permission_ask",
  });
  assert.equal(byRule.awaitsApproval?.reasonCode, "high_risk_command", byRule.content);
  const byRisk = await run(processStartTool as never, command, {
    ...context,
    approved: "high_risk_command",
  });
  assert.equal(byRisk.errorCode, "tool_unavailable", byRisk.content);
  // A deny rule is never answered away.
  const { ws: ws2, context: denying } = await gated("ask", {
    askUser: true,
    configRules: [{ tool: "read", decision: "deny" }],
  });
  await using _2 = ws2;
  const denied = await run(readTool as never, { path: "a.txt" }, {
    ...denying,
    approved: "permission_ask",
  });
  assert.equal(denied.errorCode, "permission_denied", denied.content);
});

Deno.test("with askUser, a loop pause asks; allowing it lets the call run and counts afresh", async () => {
  const tool = counter();
  const { ws, context } = await gated("full_access", { askUser: true });
  await using _ = ws;
  const results = [];
  for (let i = 0; i < 5; i++) results.push(await run(tool as never, { n: 1 }, context));
  assert.deepEqual(results.map((r) => r.errorCode), [
    undefined,
    undefined,
    undefined,
    "repeated_call",
    "loop_detected",
  ]);
  assert.equal(results[4]?.awaitsApproval?.reasonCode, "loop_detected");
  assert.equal(results[3]?.awaitsApproval, undefined, "a corrective refusal does not ask");
  const allowed = await run(tool as never, { n: 1 }, { ...context, approved: "loop_detected" });
  assert.equal(allowed.isError, undefined, allowed.content);
  assert.equal(tool.runs, 4);
});

Deno.test("a tool's configured default decision replaces the preset's, within a sealed mode's wall", async () => {
  const tool = (risk: "read" | "process", defaultDecision?: "allow" | "ask" | "deny") =>
    defineTool({
      id: "mcp__srv__probe",
      description: "probe",
      params: z.object({}),
      mutating: risk !== "read",
      risk,
      ...(defaultDecision ? { defaultDecision } : {}),
      run: () => Promise.resolve({ content: "ran" }),
    });
  const cases: Array<
    [ExecutionPolicy, "read" | "process", "allow" | "ask" | "deny" | undefined, string | undefined]
  > = [
    ["ask", "process", undefined, "approval_required"],
    ["ask", "process", "allow", undefined],
    ["ask", "read", "deny", "permission_denied"],
    ["full_access", "process", undefined, undefined],
    ["full_access", "process", "deny", "permission_denied"],
    ["full_access", "process", "ask", "approval_required"],
    ["workspace_write", "read", undefined, undefined],
    ["workspace_write", "process", undefined, "permission_denied"],
    ["workspace_write", "process", "allow", "permission_denied"],
    ["read_only", "read", "allow", undefined],
  ];
  for (const [policy, risk, decision, expected] of cases) {
    const { ws, context } = await gated(policy);
    await using _ = ws;
    const result = await run(tool(risk, decision) as never, {}, context);
    assert.equal(
      result.errorCode,
      expected,
      `${policy}, risk ${risk}, configured ${decision}: ${result.content}`,
    );
  }
  // A config rule still wins over the configured default.
  const { ws, context } = await gated("ask", {
    configRules: [{ tool: "*", decision: "deny" }],
  });
  await using _ = ws;
  const denied = await run(tool("process", "allow") as never, {}, context);
  assert.equal(denied.errorCode, "permission_denied", denied.content);
});
