/**
 * The completion check: when a candidate final answer leaves tool work unsettled,
 * one bounded, tool-less call asks the model to state what remains — never looped.
 * Its answer is added to the Run as an assistant message.
 *
 * @module
 */
import {
  type Committed,
  completeAnswer,
  recordModelInput,
  recordModelResponse,
  type StateStore,
} from "@daedalus/storage";
import { type Provider, ProviderError } from "../providers/provider.ts";
import { COMPLETION_CHECK_OUTPUT_TOKENS } from "../context/limits.ts";
import { collectText } from "./collect_text.ts";
import type { RunContext } from "./run_context.ts";

/** What the check needs. */
export interface CompletionCheckDeps {
  /** The state store. */
  store: StateStore;
  /** The local date for usage. */
  today: () => string;
  /** Configured credentials: the model's answer is redacted before it is kept. */
  protectedValues?: { redact(text: string): string };
}

/**
 * Runs the one completion check of a Run.
 *
 * @param deps store and clock
 * @param runId the run
 * @param provider its provider
 * @param context the Run's context
 * @param unsettled descriptions of the unsettled work
 * @param signal cancellation
 * @param commit unwraps a write's result (the store publishes its events itself)
 */
export async function checkCompletion(
  deps: CompletionCheckDeps,
  runId: string,
  provider: Provider,
  context: RunContext,
  unsettled: string[],
  signal: AbortSignal,
  commit: <T>(committed: Committed<T>) => T,
): Promise<void> {
  const callOrdinal = context.nextCallOrdinal();
  const messages = [
    ...await context.messages(),
    {
      role: "system" as const,
      content: "Before this run finishes, the runtime reports tool work that is not settled:\n" +
        unsettled.map((line) => `- ${line}`).join("\n") +
        `\nIn at most about ${COMPLETION_CHECK_OUTPUT_TOKENS} tokens, tell the user what is ` +
        "still running or unverified and what they should check. Do not call tools.",
    },
  ];
  commit(recordModelInput(deps.store, runId, {
    callOrdinal,
    stepOrdinal: null,
    purpose: "completion_check",
    contextRevision: null,
    stepInput: { callOrdinal, unsettled },
  }));
  try {
    const result = await collectText(
      provider,
      { modelId: context.modelId, messages, tools: [], reasoningEffort: null },
      signal,
      deps.protectedValues,
    );
    // The call's end and its answer: one transaction.
    const answer = result.text.trim();
    commit(completeAnswer(
      deps.store,
      runId,
      {
        callOrdinal,
        outcome: "completed",
        usage: result.usage,
        responseModelId: result.responseModelId,
        requestId: result.requestId,
        activityDate: deps.today(),
      },
      answer
        ? {
          kind: "message",
          role: "assistant",
          status: "completed",
          content: answer,
          data: { completionCheck: true },
        }
        : undefined,
    ));
  } catch (error) {
    const category = error instanceof ProviderError ? error.category : "unknown";
    commit(recordModelResponse(deps.store, runId, {
      callOrdinal,
      outcome: signal.aborted ? "cancelled" : "failed",
      usage: null,
      responseModelId: null,
      requestId: null,
      reasonCode: signal.aborted ? "cancelled" : `provider_${category}`,
      activityDate: deps.today(),
    }));
  }
}
