import assert from "node:assert/strict";
import type { ToolResult } from "../tool.ts";
import { GovernanceError } from "./governance_error.ts";
import {
  createLoopDetector,
  type LoopCall,
  type LoopDetector,
  type LoopDetectorOptions,
  type LoopVerdict,
} from "./loop_detector.ts";

// The calls the tables use, by short name.
const CALLS: Record<string, LoopCall> = {
  readA: { tool: "read", args: { path: "a.ts", limit: 20 }, readOnly: true },
  // readA with its keys in the other order: the same call.
  readA2: { tool: "read", args: { limit: 20, path: "a.ts" }, readOnly: true },
  readB: { tool: "read", args: { path: "b.ts" }, readOnly: true },
  grepC: { tool: "grep", args: { pattern: "TODO" }, readOnly: true },
  writeX: { tool: "write", args: { path: "x.ts", content: "x" }, readOnly: false },
  // Two edits that undo each other.
  editAB: { tool: "edit", args: { path: "a.ts", old: "a", new: "b" }, readOnly: false },
  editBA: { tool: "edit", args: { path: "a.ts", old: "b", new: "a" }, readOnly: false },
  wait: { tool: "process_wait", args: { id: "p1", timeoutMs: 1000 }, readOnly: true },
  poll: { tool: "process_read", args: { id: "p1" }, readOnly: true },
};

/** A step: a call name, optionally `=result` (default "ok") and `!` for an error result. */
function parseStep(step: string): { call: LoopCall; result: ToolResult } {
  const [name = "", text = "ok"] = step.split("=");
  const failed = text.endsWith("!");
  const call = CALLS[name];
  if (call === undefined) throw new Error(`unknown call ${name} in the table`);
  return { call, result: { content: failed ? text.slice(0, -1) : text, isError: failed } };
}

function label(verdict: LoopVerdict): string {
  if (verdict.verdict === "refuse" || verdict.verdict === "pause") {
    return `${verdict.verdict}:${verdict.pattern}`;
  }
  return verdict.verdict;
}

/** Runs the steps: `before`, and `after` with the step's result when the verdict is run. */
function play(steps: string[], detector: LoopDetector = createLoopDetector()): string[] {
  return steps.map((step) => {
    const { call, result } = parseStep(step);
    const verdict = detector.before(call);
    if (verdict.verdict === "run") detector.after(call, result);
    return label(verdict);
  });
}

const repeat = (step: string, times: number) => Array.from({ length: times }, () => step);

Deno.test("call sequences and the verdict after each", () => {
  const cases: { name: string; steps: string[]; verdicts: string[] }[] = [
    {
      name: "the same call and result: three run, the fourth is refused, the fifth pauses",
      steps: repeat("readA", 6),
      verdicts: ["run", "run", "run", "refuse:repeat", "pause:repeat", "pause:repeat"],
    },
    {
      name: "argument key order does not matter",
      steps: ["readA", "readA2", "readA", "readA2"],
      verdicts: ["run", "run", "run", "refuse:repeat"],
    },
    {
      name: "a result that changes every time is progress",
      steps: ["poll=1", "poll=2", "poll=3", "poll=4", "poll=5", "poll=6"],
      verdicts: repeat("run", 6),
    },
    {
      name: "a changed result restarts the count",
      steps: ["readA=x", "readA=x", "readA=y", "readA=y", "readA=y", "readA=y"],
      verdicts: ["run", "run", "run", "run", "run", "refuse:repeat"],
    },
    {
      name: "isError is part of the result: same text, once failed, is a change",
      steps: ["readA=t", "readA=t", "readA=t!", "readA=t!", "readA=t!", "readA=t!"],
      verdicts: ["run", "run", "run", "run", "run", "refuse:repeat"],
    },
    {
      name: "different arguments are different calls",
      steps: ["readA", "readA", "readA", "readB", "readB", "readB", "grepC"],
      verdicts: repeat("run", 7),
    },
    {
      name: "counts are per Run, not back to back",
      steps: ["readA", "readB", "readA", "grepC", "readA", "readB", "readA"],
      verdicts: ["run", "run", "run", "run", "run", "run", "refuse:repeat"],
    },
    {
      name: "a successful mutating call resets the others' counts",
      steps: ["readA", "readA", "readA", "writeX", "readA", "readA", "readA", "readA"],
      verdicts: ["run", "run", "run", "run", "run", "run", "run", "refuse:repeat"],
    },
    {
      name: "a refused call may run again after a successful change",
      steps: ["readA", "readA", "readA", "readA", "writeX", "readA"],
      verdicts: ["run", "run", "run", "refuse:repeat", "run", "run"],
    },
    {
      name: "a failed mutating call resets nothing",
      steps: ["readA", "readA", "readA", "writeX=no!", "readA"],
      verdicts: ["run", "run", "run", "run", "refuse:repeat"],
    },
    {
      name: "a mutating call's own count is kept: the same change again is no progress",
      steps: ["writeX", "readB", "writeX", "readB", "writeX", "writeX", "writeX"],
      verdicts: ["run", "run", "run", "run", "run", "refuse:repeat", "pause:repeat"],
    },
    {
      name: "ping-pong: two edits undoing each other, 3 rounds, then refused, then paused",
      steps: [
        ...repeat("editAB", 1),
        "editBA",
        "editAB",
        "editBA",
        "editAB",
        "editBA",
        "editAB",
        "editAB",
      ],
      verdicts: ["run", "run", "run", "run", "run", "run", "refuse:ping_pong", "pause:ping_pong"],
    },
    {
      name: "ping-pong: either call of the pair is refused",
      steps: ["editAB", "editBA", "editAB", "editBA", "editAB", "editBA", "editBA"],
      verdicts: ["run", "run", "run", "run", "run", "run", "refuse:ping_pong"],
    },
    {
      name: "ping-pong: two and a half rounds are not yet a pattern",
      steps: ["editAB", "editBA", "editAB", "editBA", "editAB", "grepC"],
      verdicts: repeat("run", 6),
    },
    {
      name: "ping-pong: another executed call breaks the pattern and its count",
      steps: [
        ...["editAB", "editBA", "editAB", "editBA", "editAB", "editBA"],
        ...["editAB", "grepC", "editAB", "editBA"],
      ],
      verdicts: [...repeat("run", 6), "refuse:ping_pong", "run", "run", "run"],
    },
    {
      name: "ping-pong: a third call of the wrong kind is not refused",
      steps: ["editAB", "editBA", "editAB", "editBA", "editAB", "editBA", "grepC"],
      verdicts: repeat("run", 7),
    },
    {
      name: "polling (wait, read) with new output each time is not ping-pong",
      steps: ["wait=1", "poll=a", "wait=2", "poll=b", "wait=3", "poll=c", "wait=4", "poll=d"],
      verdicts: repeat("run", 8),
    },
    {
      name: "polling with no new output is caught as ping-pong; each call is refused once",
      steps: ["wait", "poll", "wait", "poll", "wait", "poll", "wait", "poll", "wait"],
      verdicts: [...repeat("run", 6), "refuse:ping_pong", "refuse:ping_pong", "pause:ping_pong"],
    },
    {
      name: "one call whose result flips (x y x y) is not two calls alternating",
      steps: ["readA=x", "readA=y", "readA=x", "readA=y", "readA=x", "readA=y", "readA=x"],
      verdicts: repeat("run", 7),
    },
  ];
  for (const { name, steps, verdicts } of cases) {
    assert.deepEqual(play(steps), verdicts, name);
  }
});

Deno.test("the limits are options: N = 2, M = 3, ping-pong after 2 rounds", () => {
  const options: LoopDetectorOptions = { repeatLimit: 2, pauseLimit: 3, pingPongRounds: 2 };
  assert.deepEqual(
    play(repeat("readA", 4), createLoopDetector(options)),
    ["run", "run", "pause:repeat", "pause:repeat"],
    "with M = N + 1 the first attempt past N pauses",
  );
  assert.deepEqual(
    play(["editAB", "editBA", "editAB", "editBA", "editAB"], createLoopDetector(options)),
    ["run", "run", "run", "run", "pause:ping_pong"],
  );
  const wide = createLoopDetector({ repeatLimit: 6 });
  assert.deepEqual(
    play(repeat("readA", 8), wide),
    [...repeat("run", 6), "pause:repeat", "pause:repeat"],
    "a repeat limit above 5 moves the default pause limit to N + 1",
  );
});

Deno.test("the refusal tells the model what was repeated and what to do instead", () => {
  const detector = createLoopDetector();
  play(repeat("readA", 3), detector);
  assert.deepEqual(detector.before(CALLS.readA as LoopCall), {
    verdict: "refuse",
    code: "repeated_call",
    pattern: "repeat",
    message: "repeated_call: read was already called 3 times in this run with these " +
      "arguments and returned the same result each time, so it was not run again. Use the " +
      "result you have, change the arguments, or take a different approach",
  });
  assert.deepEqual(detector.before(CALLS.readA as LoopCall), {
    verdict: "pause",
    reason: "loop_detected",
    pattern: "repeat",
    message: "The run seems stuck in a loop: read was tried 5 times, same result",
  });
  const pair = createLoopDetector();
  play(["wait", "poll", "wait", "poll", "wait", "poll"], pair);
  const refused = pair.before(CALLS.wait as LoopCall);
  assert.equal(refused.verdict, "refuse");
  assert.match(
    refused.verdict === "refuse" ? refused.message : "",
    /^repeated_call: process_wait and process_read have alternated 3 times/,
  );
  const edits = createLoopDetector();
  play(["editAB", "editBA", "editAB", "editBA", "editAB", "editBA"], edits);
  const same = edits.before(CALLS.editAB as LoopCall);
  assert.match(same.verdict === "refuse" ? same.message : "", /^repeated_call: two edit calls /);
});

Deno.test("reuse: a read-only call with an unchanged target gets the earlier result", () => {
  let now = 5_000;
  const detector = createLoopDetector({ now: () => now });
  const call: LoopCall = { ...CALLS.readA as LoopCall, targetUnchanged: true };
  assert.deepEqual(detector.before(call), { verdict: "run" }, "nothing to reuse yet");
  const handedOver: ToolResult = { content: "line 1", details: { lines: 1 } };
  detector.after(call, handedOver);
  handedOver.content = "changed by the caller afterwards";
  now = 9_000;
  const note = "(The same call earlier in this run returned this, and its target has not " +
    "changed since, so it was not run again.)";
  const expected = {
    verdict: "reuse",
    recordedAt: 5_000,
    result: {
      content: `line 1\n\n${note}`,
      details: { lines: 1, reused: true, reusedFromMs: 5_000 },
    },
  };
  assert.deepEqual(detector.before(call), expected);
  assert.deepEqual(detector.before(call), expected, "reuse counts as an attempt");
  assert.equal(label(detector.before(call)), "refuse:repeat", "the fourth attempt is refused");
  assert.equal(label(detector.before(call)), "pause:repeat");
});

Deno.test("reuse only when the caller says unchanged, for a read-only success that was kept", () => {
  const cases: {
    name: string;
    steps: [LoopCall, ToolResult | null][];
    verdict: string;
    options?: LoopDetectorOptions;
  }[] = [
    {
      name: "the caller did not say the target is unchanged",
      steps: [[CALLS.readA as LoopCall, { content: "a" }], [CALLS.readA as LoopCall, null]],
      verdict: "run",
    },
    {
      name: "the earlier result failed",
      steps: [
        [CALLS.readA as LoopCall, { content: "gone", isError: true }],
        [{ ...CALLS.readA as LoopCall, targetUnchanged: true }, null],
      ],
      verdict: "run",
    },
    {
      name: "a mutating call is never reused",
      steps: [
        [CALLS.writeX as LoopCall, { content: "written" }],
        [{ ...CALLS.writeX as LoopCall, targetUnchanged: true }, null],
      ],
      verdict: "run",
    },
    {
      name: "the result was larger than the kept size",
      steps: [
        [CALLS.readA as LoopCall, { content: "12345" }],
        [{ ...CALLS.readA as LoopCall, targetUnchanged: true }, null],
      ],
      verdict: "run",
      options: { reuseResultMaxChars: 4 },
    },
    {
      name: "a result at the kept size is kept",
      steps: [
        [CALLS.readA as LoopCall, { content: "1234" }],
        [{ ...CALLS.readA as LoopCall, targetUnchanged: true }, null],
      ],
      verdict: "reuse",
      options: { reuseResultMaxChars: 4 },
    },
    {
      name: "a successful change since drops kept results",
      steps: [
        [CALLS.readA as LoopCall, { content: "a" }],
        [CALLS.writeX as LoopCall, { content: "written" }],
        [{ ...CALLS.readA as LoopCall, targetUnchanged: true }, null],
      ],
      verdict: "run",
    },
    {
      name: "the total kept size drops the oldest result first (the older one)",
      steps: [
        [CALLS.readA as LoopCall, { content: "aaaaaa" }],
        [CALLS.readB as LoopCall, { content: "bbbbbb" }],
        [{ ...CALLS.readA as LoopCall, targetUnchanged: true }, null],
      ],
      verdict: "run",
      options: { reuseTotalMaxChars: 10 },
    },
    {
      name: "the total kept size drops the oldest result first (the newer stays)",
      steps: [
        [CALLS.readA as LoopCall, { content: "aaaaaa" }],
        [CALLS.readB as LoopCall, { content: "bbbbbb" }],
        [{ ...CALLS.readB as LoopCall, targetUnchanged: true }, null],
      ],
      verdict: "reuse",
      options: { reuseTotalMaxChars: 10 },
    },
  ];
  for (const { name, steps, verdict, options } of cases) {
    const detector = createLoopDetector(options);
    let last = "";
    for (const [call, result] of steps) {
      last = label(detector.before(call));
      if (result !== null) detector.after(call, result);
    }
    assert.equal(last, verdict, name);
  }
});

Deno.test("calls of one step in parallel: before, before, after, after", () => {
  const detector = createLoopDetector();
  const call = CALLS.readA as LoopCall;
  assert.deepEqual([detector.before(call), detector.before(call)].map(label), ["run", "run"]);
  detector.after(call, { content: "same" });
  detector.after(call, { content: "same" });
  assert.equal(label(detector.before(call)), "run", "two identical results: a third may run");
  detector.after(call, { content: "same" });
  assert.equal(label(detector.before(call)), "refuse:repeat", "three identical results");
});

Deno.test("a pair issued together each step: one refusal each, then the pause", () => {
  const detector = createLoopDetector();
  const pair = [CALLS.readA as LoopCall, CALLS.readB as LoopCall];
  const steps = Array.from({ length: 5 }, () => {
    const verdicts = pair.map((call) => detector.before(call));
    pair.forEach((call, index) => {
      if (verdicts[index]?.verdict === "run") detector.after(call, { content: "same" });
    });
    return verdicts.map(label).join(" ");
  });
  assert.deepEqual(steps, [
    "run run",
    "run run",
    "run run",
    "refuse:ping_pong refuse:ping_pong",
    "pause:ping_pong pause:ping_pong",
  ]);
});

Deno.test("memory is bounded: the least recently seen call is forgotten", () => {
  const detector = createLoopDetector({ maxKeys: 2 });
  assert.deepEqual(
    play(["readA", "readA", "readA", "readB", "grepC", "readA"], detector),
    repeat("run", 6),
    "readA was forgotten when grepC came, so its count started over",
  );
  const touched = createLoopDetector({ maxKeys: 2 });
  assert.deepEqual(
    play(["readA", "readA", "readA", "readB", "readA", "grepC", "readA"], touched),
    ["run", "run", "run", "run", "refuse:repeat", "run", "pause:repeat"],
    "asking about readA again made readB the least recently seen",
  );
});

Deno.test("reset forgets everything: the user let a paused Run go on", () => {
  const detector = createLoopDetector();
  assert.equal(play(repeat("readA", 5), detector).at(-1), "pause:repeat");
  detector.reset();
  assert.deepEqual(play(repeat("readA", 4), detector), ["run", "run", "run", "refuse:repeat"]);
  play(["editAB", "editBA", "editAB", "editBA", "editAB", "editBA"], detector);
  detector.reset();
  assert.deepEqual(play(["editAB"], detector), ["run"], "the ping-pong pattern is gone too");
});

Deno.test("bad options, calls and results are refused with stable codes", () => {
  const options: [LoopDetectorOptions, RegExp][] = [
    [{ repeatLimit: 0 }, /repeatLimit must be an integer from 1 to 100, got 0/],
    [{ repeatLimit: 3, pauseLimit: 3 }, /pauseLimit must be an integer from 4 to 1000, got 3/],
    [{ pingPongRounds: 1 }, /pingPongRounds must be an integer from 2 to 100/],
    [{ maxKeys: 0 }, /maxKeys/],
    [{ reuseResultMaxChars: -1 }, /reuseResultMaxChars/],
    [{ reuseTotalMaxChars: 0.5 }, /reuseTotalMaxChars/],
    [{ now: "soon" as unknown as () => number }, /now must be a function, got "soon"/],
    [null as unknown as LoopDetectorOptions, /must be an object/],
  ];
  for (const [option, message] of options) {
    assert.throws(
      () => createLoopDetector(option),
      (error: unknown) =>
        error instanceof GovernanceError && error.code === "loop_option_invalid" &&
        message.test(error.message),
      `options ${JSON.stringify(option)}`,
    );
  }
  const detector = createLoopDetector();
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  const calls: [unknown, string, RegExp][] = [
    [null, "loop_call_invalid", /a call is an object/],
    [{ tool: "", args: {}, readOnly: true }, "loop_call_invalid", /tool is a string/],
    [{ tool: "read", args: {} }, "loop_call_invalid", /readOnly is a boolean, got undefined/],
    [
      { tool: "read", args: {}, readOnly: true, targetUnchanged: "yes" },
      "loop_call_invalid",
      /targetUnchanged is a boolean, got "yes"/,
    ],
    [{ tool: "read", args: cycle, readOnly: true }, "arguments_not_json", /contains itself/],
  ];
  for (const [call, code, message] of calls) {
    for (
      const use of [
        () => detector.before(call as LoopCall),
        () => detector.after(call as LoopCall, { content: "" }),
      ]
    ) {
      assert.throws(
        use,
        (error: unknown) =>
          error instanceof GovernanceError && error.code === code && message.test(error.message),
        `call ${String(message)}`,
      );
    }
  }
  for (const result of [null, { content: 5 }, { content: "", isError: "no" }]) {
    assert.throws(
      () => detector.after(CALLS.readA as LoopCall, result as unknown as ToolResult),
      (error: unknown) => error instanceof GovernanceError && error.code === "loop_call_invalid",
      `result ${JSON.stringify(result)}`,
    );
  }
});
