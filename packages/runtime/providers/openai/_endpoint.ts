/**
 * What the chat and discovery requests share: the URL root, the request headers and
 * the redactor of the credentials they carry.
 *
 * @module
 */
import { ProviderError } from "../provider.ts";
import { SecretRedactor } from "./redact.ts";

/**
 * The root URL without trailing slashes.
 *
 * @param baseUrl a configured base URL
 * @returns it, ready for `/chat/completions` or `/models` to be appended
 */
export function trimBaseUrl(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, "");
}

/**
 * The headers of a request: the given ones, the bearer token, then the extra headers
 * (which may replace either, whatever their case).
 *
 * @param base headers the request needs (accept, content type)
 * @param apiKey the API key, if any
 * @param extra extra headers, if any
 * @returns the headers
 * @throws {ProviderError} `invalid_request` when a header name or value is not valid
 *   HTTP (the message names the header, never its value)
 */
export function requestHeaders(
  base: Record<string, string>,
  apiKey: string | undefined,
  extra: Record<string, string> | undefined,
): Headers {
  const headers = new Headers(base);
  setHeader(headers, "authorization", apiKey ? `Bearer ${apiKey}` : undefined);
  for (const [name, value] of Object.entries(extra ?? {})) setHeader(headers, name, value);
  return headers;
}

function setHeader(headers: Headers, name: string, value: string | undefined): void {
  if (value === undefined) return;
  try {
    headers.set(name, value);
  } catch {
    // The runtime's message quotes the value, which is a secret.
    const what = /^[!#$%&'*+.^`|~\w-]+$/.test(name) ? `header ${name}` : "a header name";
    throw new ProviderError("invalid_request", `The configured ${what} is not valid HTTP`);
  }
}

/**
 * The redactor of a provider's credentials: its key and every extra header value.
 *
 * @param apiKey the API key, if any
 * @param headers extra headers, if any
 * @returns the redactor
 */
export function redactorOf(
  apiKey: string | undefined,
  headers: Record<string, string> | undefined,
): SecretRedactor {
  return new SecretRedactor([apiKey, ...Object.values(headers ?? {})]);
}
