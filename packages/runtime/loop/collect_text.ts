/**
 * A tool-less model call whose text is wanted whole (compaction summaries,
 * completion checks, thread titles).
 *
 * @module
 */
import type { TokenUsage } from "@daedalus/protocol";
import type { Provider, ProviderRequest } from "../providers/provider.ts";

/** What a tool-less call returned. */
export interface CollectedText {
  /** The answer text. */
  text: string;
  /** Provider-reported usage, if any. */
  usage: TokenUsage | null;
  /** The model id the provider reported. */
  responseModelId: string | null;
  /** The provider's request id. */
  requestId: string | null;
}

/**
 * Streams a request and returns its text (reasoning and tool calls are ignored).
 *
 * @param provider the provider
 * @param request a tool-less request
 * @param signal cancellation
 * @param protectedValues when given, the text and ids come back redacted (whole, so a key
 *   split over deltas is caught)
 * @returns the text and the call's metadata
 * @throws {ProviderError} as the provider does
 */
export async function collectText(
  provider: Provider,
  request: ProviderRequest,
  signal: AbortSignal,
  protectedValues?: { redact(text: string): string },
): Promise<CollectedText> {
  const out: CollectedText = { text: "", usage: null, responseModelId: null, requestId: null };
  for await (const event of provider.stream(request, signal)) {
    if (event.type === "text_delta") out.text += event.text;
    else if (event.type === "usage") out.usage = event.usage;
    else if (event.type === "finish") {
      out.responseModelId = event.responseModelId;
      out.requestId = event.requestId;
    }
  }
  if (!protectedValues) return out;
  const redact = (text: string | null) => text === null ? null : protectedValues.redact(text);
  return {
    ...out,
    text: protectedValues.redact(out.text),
    responseModelId: redact(out.responseModelId),
    requestId: redact(out.requestId),
  };
}
