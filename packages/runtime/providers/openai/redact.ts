/**
 * Keeps credentials out of errors: the exact value of every configured secret, and
 * any piece of one at least {@linkcode SECRET_FRAGMENT_MIN_CHARS} characters long, is
 * replaced wherever it appears (seed §6.5).
 *
 * @module
 */
import { ProviderError } from "../provider.ts";
import { SECRET_EXACT_MIN_CHARS, SECRET_FRAGMENT_MIN_CHARS } from "./limits.ts";

/** What replaces a redacted credential. */
export const REDACTED = "[redacted]";

/** A set of credentials and the pieces of them that must never be shown. */
export class SecretRedactor {
  readonly #exact: string[];
  readonly #fragments = new Set<string>();

  /** @param secrets API keys and header values (empty and undefined entries are ignored) */
  constructor(secrets: readonly (string | undefined)[]) {
    this.#exact = secrets
      .filter((secret): secret is string => (secret?.length ?? 0) >= SECRET_EXACT_MIN_CHARS)
      .sort((a, b) => b.length - a.length);
    for (const secret of this.#exact) {
      for (let i = 0; i + SECRET_FRAGMENT_MIN_CHARS <= secret.length; i++) {
        this.#fragments.add(secret.slice(i, i + SECRET_FRAGMENT_MIN_CHARS));
      }
    }
  }

  /**
   * Redacts credentials from a text.
   *
   * @param text any text
   * @returns the text with every credential and long enough piece of one replaced
   */
  redact(text: string): string {
    let result = text;
    for (const secret of this.#exact) result = result.replaceAll(secret, REDACTED);
    if (this.#fragments.size === 0) return result;
    // Every piece of ≥ 8 characters contains a window of exactly 8 from the set, and
    // every such window is itself a piece, so marking the windows marks exactly the pieces.
    const covered = new Uint8Array(result.length);
    let any = false;
    for (let i = 0; i + SECRET_FRAGMENT_MIN_CHARS <= result.length; i++) {
      if (!this.#fragments.has(result.slice(i, i + SECRET_FRAGMENT_MIN_CHARS))) continue;
      covered.fill(1, i, i + SECRET_FRAGMENT_MIN_CHARS);
      any = true;
    }
    if (!any) return result;
    let output = "";
    for (let i = 0; i < result.length; i++) {
      if (!covered[i]) output += result[i];
      else if (i === 0 || !covered[i - 1]) output += REDACTED;
    }
    return output;
  }

  /**
   * A copy of a provider error that carries no credential: the message and the request id
   * (a response header) are redacted, and the cause is kept only when it shows none
   * (otherwise replaced by a redacted copy).
   *
   * @param error a classified failure
   * @returns the same error when it is clean, else a clean copy
   */
  redactError(error: ProviderError): ProviderError {
    const message = this.redact(error.message);
    const providerMessage = error.providerMessage === undefined
      ? undefined
      : this.redact(error.providerMessage);
    const cause = this.#cleanCause(error.cause);
    const requestId = error.requestId === undefined ? undefined : this.redact(error.requestId);
    if (
      message === error.message && cause === error.cause && requestId === error.requestId &&
      providerMessage === error.providerMessage
    ) return error;
    return new ProviderError(error.category, message, {
      retryable: error.retryable,
      status: error.status,
      requestId,
      retryAfterSec: error.retryAfterSec,
      providerMessage,
      cause,
    });
  }

  #cleanCause(cause: unknown): unknown {
    if (cause === undefined) return undefined;
    if (cause instanceof ProviderError) return this.redactError(cause);
    const text = cause instanceof Error
      ? `${cause.name}: ${cause.message}\n${cause.stack ?? ""}`
      : String(cause);
    if (this.#isClean(text) && (cause instanceof Error || typeof cause !== "object")) {
      return cause;
    }
    const name = cause instanceof Error ? cause.name : "Error";
    const copy = new Error(this.redact(cause instanceof Error ? cause.message : String(cause)));
    copy.name = name;
    return stripStack(copy);
  }

  #isClean(text: string): boolean {
    return this.redact(text) === text;
  }
}

function stripStack<T extends Error>(error: T): T {
  error.stack = `${error.name}: ${error.message}`;
  return error;
}
