/**
 * An in-process provider that plays a script: for tests, demos and library users
 * who want the whole runtime without a model.
 *
 * @module
 */
import type { ProviderFailureCategory, TokenUsage } from "@daedalus/protocol";
import {
  type Provider,
  ProviderError,
  type ProviderEvent,
  type ProviderRequest,
} from "./provider.ts";

/** One scripted model response. */
export interface ScriptedResponse {
  /** Text chunks streamed in order. */
  text?: string[];
  /** Reasoning chunks streamed before the text. */
  reasoning?: string[];
  /** Tool calls requested after the text. */
  toolCalls?: { name: string; arguments: Record<string, unknown> | string; id?: string }[];
  /** Pause before each chunk, in milliseconds. */
  delayMs?: number;
  /** Fail instead of finishing (after streaming what came before). */
  error?: { category: ProviderFailureCategory; message?: string };
  /** Usage to report; a small default is reported otherwise. */
  usage?: TokenUsage;
}

/** A script: a list of responses consumed one per call, or a function of the request. */
export type Script =
  | ScriptedResponse[]
  | ((request: ProviderRequest, callIndex: number) => ScriptedResponse);

/** Options of {@linkcode createScriptedProvider}. */
export interface ScriptedProviderOptions {
  /** Provider id. Default "scripted". */
  id?: string;
  /** Served models. Default ["scripted-model"]. */
  models?: string[];
  /** The script. */
  script: Script;
}

/** A scripted provider, with the requests it received (for assertions). */
export interface ScriptedProvider extends Provider {
  /** Every request received, in order. */
  readonly requests: ProviderRequest[];
}

/**
 * Creates a provider that answers each call with the next scripted response. When a
 * list runs out, it answers with an empty text.
 *
 * @param options id, models and script
 * @returns the provider
 * @example
 * ```ts
 * const provider = createScriptedProvider({ script: [{ text: ["Hello", " world"] }] });
 * ```
 */
export function createScriptedProvider(options: ScriptedProviderOptions): ScriptedProvider {
  const requests: ProviderRequest[] = [];
  const { script } = options;
  return {
    id: options.id ?? "scripted",
    models: options.models ?? ["scripted-model"],
    requests,
    async *stream(request, signal) {
      const callIndex = requests.length;
      requests.push(request);
      const response = typeof script === "function"
        ? script(request, callIndex)
        : script[callIndex] ?? { text: [""] };
      yield* play(response, signal);
    },
  };
}

async function* play(
  response: ScriptedResponse,
  signal: AbortSignal,
): AsyncGenerator<ProviderEvent> {
  const pause = async () => {
    if (response.delayMs) await sleep(response.delayMs, signal);
    if (signal.aborted) throw new ProviderError("cancelled", "Request was cancelled");
  };
  for (const text of response.reasoning ?? []) {
    await pause();
    yield { type: "reasoning_delta", text };
  }
  for (const text of response.text ?? []) {
    await pause();
    if (text) yield { type: "text_delta", text };
  }
  if (response.error) {
    await pause();
    throw new ProviderError(response.error.category, response.error.message ?? "Scripted failure");
  }
  let index = 0;
  for (const call of response.toolCalls ?? []) {
    await pause();
    yield {
      type: "tool_call",
      id: call.id ?? `call_${++index}`,
      name: call.name,
      arguments: typeof call.arguments === "string"
        ? call.arguments
        : JSON.stringify(call.arguments),
    };
  }
  await pause();
  yield {
    type: "usage",
    usage: response.usage ??
      {
        inputTokens: 10,
        cachedInputTokens: 0,
        outputTokens: 5,
        reasoningOutputTokens: null,
        totalTokens: 15,
      },
  };
  yield { type: "finish", responseModelId: null, requestId: null };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
