/**
 * A Run's token use, folded from its live model events: the tokens its model calls
 * reported (`model.response_finished`) and how much of the window its last step's input
 * took (`model.input_prepared`'s estimate, replaced by the provider's count once the call
 * reports); a Run loaded from history brings its totals with it (`turn.list`'s `usage`).
 * Pure.
 *
 * @module
 */
import type { JournalEvent, RunUsageTotals } from "@daedalus/client";

/** What the usage line under a Run's answer can tell. */
export interface RunUsage {
  /** Input tokens of all its model calls that reported usage. */
  inputTokens: number;
  /** Of those, read from the provider's cache; null when no call said. */
  cachedInputTokens: number | null;
  /** Output tokens of all its model calls. */
  outputTokens: number;
  /** Of those, spent on reasoning; null when no call said. */
  reasoningOutputTokens: number | null;
  /** Model calls that reported usage. */
  reportedCalls: number;
  /** The last execution step's input: the provider's count, else the runtime's estimate. */
  contextTokens: number | null;
  /** Whether {@linkcode contextTokens} is the runtime's estimate. */
  contextEstimated: boolean;
  /** The window the last step was sized for, in tokens. */
  contextWindow: number | null;
  /** The call ordinal of the last execution step (whose count replaces the estimate). */
  lastStepCall: number | null;
  /** The model id the provider answered with, when it named one. */
  responseModelId: string | null;
}

/** A Run's usage before any model event. */
export function emptyRunUsage(): RunUsage {
  return {
    inputTokens: 0,
    cachedInputTokens: null,
    outputTokens: 0,
    reasoningOutputTokens: null,
    reportedCalls: 0,
    contextTokens: null,
    contextEstimated: false,
    contextWindow: null,
    lastStepCall: null,
    responseModelId: null,
  };
}

/**
 * The usage of a Run as `turn.list` records it (the runtime's stored model usage).
 *
 * @param totals the Run record's `usage`
 * @returns the usage line's view of it
 */
export function recordedUsage(totals: RunUsageTotals): RunUsage {
  return {
    inputTokens: totals.inputTokens,
    cachedInputTokens: totals.cachedInputTokens,
    outputTokens: totals.outputTokens,
    reasoningOutputTokens: totals.reasoningOutputTokens,
    reportedCalls: totals.reportedCalls,
    contextTokens: totals.contextWindow === null ? null : totals.lastStepInputTokens,
    contextEstimated: false,
    contextWindow: totals.contextWindow,
    lastStepCall: null,
    responseModelId: null,
  };
}

type InputPrepared = Extract<JournalEvent, { type: "model.input_prepared" }>["payload"];
type ResponseFinished = Extract<JournalEvent, { type: "model.response_finished" }>["payload"];

function count(value: unknown): number | null {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : null;
}

/**
 * Takes in a prepared model input: an execution step's estimate and window become the
 * context use until the call reports its own count.
 *
 * @param usage the Run's usage so far
 * @param prepared the event's payload
 * @returns the new usage (the same object when nothing changed)
 */
export function withModelInput(usage: RunUsage, prepared: InputPrepared): RunUsage {
  if (prepared.purpose !== "execution") return usage;
  const window = count(prepared.stepInput.contextWindow);
  const estimate = count(prepared.stepInput.estimatedInputTokens);
  if (window === null || window === 0) return usage;
  return {
    ...usage,
    contextWindow: window,
    contextTokens: estimate,
    contextEstimated: estimate !== null,
    lastStepCall: prepared.callOrdinal,
  };
}

/**
 * Takes in a finished model call: its tokens add up; the last step's count replaces the
 * estimate.
 *
 * @param usage the Run's usage so far
 * @param finished the event's payload
 * @returns the new usage (the same object when nothing changed)
 */
export function withModelResponse(usage: RunUsage, finished: ResponseFinished): RunUsage {
  const reported = finished.usage;
  const model = finished.responseModelId ?? usage.responseModelId;
  if (!reported) {
    return model === usage.responseModelId ? usage : { ...usage, responseModelId: model };
  }
  const sum = (a: number | null, b: number | null) =>
    a === null && b === null ? null : (a ?? 0) + (b ?? 0);
  const lastStep = finished.callOrdinal === usage.lastStepCall;
  return {
    ...usage,
    inputTokens: usage.inputTokens + reported.inputTokens,
    cachedInputTokens: sum(usage.cachedInputTokens, reported.cachedInputTokens),
    outputTokens: usage.outputTokens + reported.outputTokens,
    reasoningOutputTokens: sum(usage.reasoningOutputTokens, reported.reasoningOutputTokens),
    reportedCalls: usage.reportedCalls + 1,
    ...(lastStep ? { contextTokens: reported.inputTokens, contextEstimated: false } : {}),
    responseModelId: model,
  };
}
