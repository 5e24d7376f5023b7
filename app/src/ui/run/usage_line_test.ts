import assert from "node:assert/strict";
import { setLocale } from "../../i18n/i18n.ts";
import { emptyRunUsage, type RunUsage } from "../../state/run_usage.ts";
import { shortTokens, type UsageLineInput, usageLineParts } from "./usage_line.ts";
import { durationText, shownDuration } from "./duration_text.ts";

setLocale("en");

Deno.test("usage line: short token counts", () => {
  const cases: [number, string][] = [
    [0, "0"],
    [950, "950"],
    [999, "999"],
    [1000, "1k"],
    [1234, "1.2k"],
    [12_400, "12.4k"],
    [99_949, "99.9k"],
    [99_950, "100k"],
    [128_000, "128k"],
    [131_072, "131k"],
    [999_499, "999k"],
    [999_500, "1M"],
    [1_500_000, "1.5M"],
    [-5, "0"],
  ];
  for (const [tokens, text] of cases) assert.equal(shortTokens(tokens), text, String(tokens));
});

Deno.test("usage line: durations in words", () => {
  const cases: [number, string][] = [
    [0, "0.0 s"],
    [400, "0.4 s"],
    [2_340, "2.3 s"],
    [9_949, "9.9 s"],
    [9_950, "10 s"],
    [59_400, "59 s"],
    [59_600, "1 min 0 s"],
    [65_000, "1 min 5 s"],
    [3_600_000, "1 h 0 min"],
    [3_725_000, "1 h 2 min"],
    [-1, "0.0 s"],
    [Number.NaN, "0.0 s"],
  ];
  for (const [ms, text] of cases) assert.equal(durationText(ms), text, String(ms));
  assert.equal(shownDuration(null), null, "unknown");
  assert.equal(shownDuration(99), null, "too short to say anything");
  assert.equal(shownDuration(Number.NaN), null);
  assert.equal(shownDuration(100), "0.1 s");
});

const usage = (more: Partial<RunUsage>): RunUsage => ({ ...emptyRunUsage(), ...more });

Deno.test("usage line: the parts shown, with missing numbers left out", () => {
  const base: UsageLineInput = {
    usage: null,
    reportedContext: null,
    model: null,
    durationMs: null,
  };
  const cases: [string, UsageLineInput, [string, string][]][] = [
    ["nothing known", base, []],
    ["everything", {
      usage: usage({
        inputTokens: 12_400,
        cachedInputTokens: 3_000,
        outputTokens: 512,
        reportedCalls: 3,
        contextTokens: 9_800,
        contextWindow: 128_000,
        responseModelId: "deepseek-chat-0324",
      }),
      reportedContext: null,
      model: "deepseek-chat",
      durationMs: 65_000,
    }, [
      ["tokens", "12.4k in (3k cached) · 512 out"],
      ["context", "9.8k / 128k context"],
      ["model", "deepseek-chat-0324"],
      ["duration", "1 min 5 s"],
    ]],
    ["no cache figure, no usage events for the context: the meter's reading", {
      usage: usage({ inputTokens: 20, outputTokens: 10, reportedCalls: 2 }),
      reportedContext: { tokens: 1_500, window: 64_000, estimated: false },
      model: "scripted-model",
      durationMs: 400,
    }, [
      ["tokens", "20 in · 10 out"],
      ["context", "1.5k / 64k context"],
      ["model", "scripted-model"],
      ["duration", "0.4 s"],
    ]],
    ["a run too quick to time", { ...base, model: "m", durationMs: 40 }, [["model", "m"]]],
    ["a zero cache figure is not shown on the line", {
      ...base,
      usage: usage({ inputTokens: 5, cachedInputTokens: 0, outputTokens: 1, reportedCalls: 1 }),
    }, [["tokens", "5 in · 1 out"]]],
    ["calls that reported nothing: no token part", {
      ...base,
      usage: usage({ contextTokens: 700, contextWindow: 8_000, contextEstimated: true }),
      model: "m",
    }, [["context", "700 / 8k context"], ["model", "m"]]],
    ["a window of 0 is no window", {
      ...base,
      reportedContext: { tokens: 5, window: 0, estimated: false },
    }, []],
  ];
  for (const [name, input, expected] of cases) {
    assert.deepEqual(
      usageLineParts(input).map((part) => [part.name, part.text]),
      expected,
      name,
    );
  }
});

Deno.test("usage line: full numbers in the tooltips", () => {
  const [tokens, context, , duration] = usageLineParts({
    usage: usage({
      inputTokens: 12_400,
      cachedInputTokens: 3_000,
      outputTokens: 512,
      reportedCalls: 3,
      contextTokens: 9_812,
      contextWindow: 131_072,
      contextEstimated: true,
    }),
    reportedContext: null,
    model: "m",
    durationMs: 2_000,
  });
  assert.equal(
    tokens?.title,
    "12,400 input tokens, 3,000 of them cached; 512 output tokens; 3 model calls",
  );
  assert.match(context?.title ?? "", /about 9,812 \(estimated\) of the model's 131,072-token/);
  assert.equal(duration?.title, "The run took 2.0 s");
  const [plain] = usageLineParts({
    usage: usage({ inputTokens: 1, outputTokens: 2, reportedCalls: 1 }),
    reportedContext: null,
    model: null,
    durationMs: null,
  });
  assert.equal(plain?.title, "1 input tokens; 2 output tokens; 1 model calls");
});
