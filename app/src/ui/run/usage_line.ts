/**
 * The quiet line under a Run's answer: tokens in and out (cached when the provider said),
 * the context the last step used against the model's window, the model and how long the
 * Run took — each part with its full numbers as a tooltip, parts left out when their
 * numbers are missing. Pure (the locale's words through `t`).
 *
 * @module
 */
import { t } from "../../i18n/i18n.ts";
import type { RunUsage } from "../../state/run_usage.ts";
import { shownDuration } from "./duration_text.ts";

/** What the line is made from. */
export interface UsageLineInput {
  /** The Run's usage from its live events, or null (a Run loaded from history). */
  usage: RunUsage | null;
  /**
   * The context use the runtime reported for the thread's last step (`thread.context`),
   * when it is this Run's: it stands in for what the events would have said.
   */
  reportedContext: { tokens: number; window: number; estimated: boolean } | null;
  /** The model that answered. */
  model: string | null;
  /** How long the Run took, or null when unknown. */
  durationMs: number | null;
}

/** One part of the line: its text and the full figures behind it. */
export interface UsageLinePart {
  name: "tokens" | "context" | "model" | "duration";
  text: string;
  title: string;
}

/**
 * A token count in short form: 950, 1.2k, 12.4k, 128k, 1.5M.
 *
 * @param tokens the count
 * @returns the text
 */
export function shortTokens(tokens: number): string {
  const n = Math.max(0, Math.round(tokens));
  if (n < 1000) return String(n);
  const trim = (value: number) => value.toFixed(1).replace(/\.0$/, "");
  if (n < 99_950) return `${trim(n / 1000)}k`;
  const thousands = Math.round(n / 1000);
  if (thousands < 1000) return `${thousands}k`;
  return `${trim(n / 1_000_000)}M`;
}

function full(tokens: number): string {
  return Math.round(tokens).toLocaleString("en-US");
}

/**
 * The parts of the usage line, in order.
 *
 * @param input the Run's figures
 * @returns the parts that have numbers (none: no line)
 */
export function usageLineParts(input: UsageLineInput): UsageLinePart[] {
  const parts: UsageLinePart[] = [];
  const usage = input.usage;
  if (usage && usage.reportedCalls > 0) {
    const cached = usage.cachedInputTokens;
    const figures = {
      input: shortTokens(usage.inputTokens),
      output: shortTokens(usage.outputTokens),
      cached: shortTokens(cached ?? 0),
    };
    const exact = {
      input: full(usage.inputTokens),
      output: full(usage.outputTokens),
      cached: full(cached ?? 0),
      calls: usage.reportedCalls,
    };
    parts.push({
      name: "tokens",
      text: t(cached ? "usage.tokensCached" : "usage.tokens", figures),
      title: t(cached !== null ? "usage.tokensTitle" : "usage.tokensTitleNoCache", exact),
    });
  }
  const context = usage && usage.contextTokens !== null && usage.contextWindow !== null
    ? {
      tokens: usage.contextTokens,
      window: usage.contextWindow,
      estimated: usage.contextEstimated,
    }
    : input.reportedContext;
  if (context && context.window > 0) {
    parts.push({
      name: "context",
      text: t("usage.context", {
        used: shortTokens(context.tokens),
        window: shortTokens(context.window),
      }),
      title: t(context.estimated ? "usage.contextTitleEstimated" : "usage.contextTitle", {
        used: full(context.tokens),
        window: full(context.window),
      }),
    });
  }
  const model = usage?.responseModelId ?? input.model;
  if (model) parts.push({ name: "model", text: model, title: model });
  const duration = shownDuration(input.durationMs);
  if (duration !== null) {
    parts.push({ name: "duration", text: duration, title: t("usage.durationTitle", { duration }) });
  }
  return parts;
}
