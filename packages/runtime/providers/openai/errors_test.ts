import assert from "node:assert/strict";
import { ProviderError } from "../provider.ts";
import {
  clip,
  errorFromResponse,
  networkError,
  parseRetryAfter,
  toProviderError,
} from "./errors.ts";
import { ERROR_MESSAGE_MAX_CHARS } from "./limits.ts";

const json = (body: unknown) => JSON.stringify(body);

Deno.test("statuses map to categories and retryability", () => {
  const cases: [number, string, string, boolean][] = [
    [401, json({ error: { message: "bad key" } }), "authentication", false],
    [403, "forbidden", "authentication", false],
    [429, json({ error: { message: "slow" } }), "rate_limit", true],
    [400, json({ error: { message: "bad field" } }), "invalid_request", false],
    [404, json({ error: { message: "no such model" } }), "invalid_request", false],
    [422, json({ detail: [{ msg: "field required" }] }), "invalid_request", false],
    [408, "", "timeout", true],
    [500, "", "server", true],
    [502, "<html>bad gateway</html>", "server", true],
    [503, json({ error: "overloaded" }), "server", true],
    [409, "", "unknown", false],
  ];
  for (const [status, body, category, retryable] of cases) {
    const error = errorFromResponse(status, new Headers(), body);
    assert.equal(error.category, category, `HTTP ${status}`);
    assert.equal(error.retryable, retryable, `HTTP ${status} retryable`);
    assert.equal(error.status, status);
  }
});

Deno.test("context-length complaints are context overflows", () => {
  const bodies = [
    json({ error: { message: "x", code: "context_length_exceeded" } }),
    json({ error: { message: "This model's maximum context length is 65536 tokens" } }),
    json({ error: { message: "Too many tokens in the prompt" } }),
    "Request has too many tokens",
  ];
  for (const body of bodies) {
    assert.equal(errorFromResponse(400, new Headers(), body).category, "context_overflow", body);
  }
});

Deno.test("the provider's message, request id and retry-after are kept", () => {
  const headers = new Headers({ "x-request-id": "req_5", "retry-after": "3" });
  const error = errorFromResponse(429, headers, json({ error: { message: "Rate limit hit" } }));
  assert.equal(error.message, "The provider answered HTTP 429: Rate limit hit");
  assert.equal(error.requestId, "req_5");
  assert.equal(error.retryAfterSec, 3);
});

Deno.test("retry-after is read as seconds, an HTTP date, or retry-after-ms", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  assert.equal(parseRetryAfter(new Headers({ "retry-after": "7" }), now), 7);
  const date = new Date(now + 4_000).toUTCString();
  assert.equal(parseRetryAfter(new Headers({ "retry-after": date }), now), 4);
  const past = new Date(now - 60_000).toUTCString();
  assert.equal(parseRetryAfter(new Headers({ "retry-after": past }), now), 0);
  assert.equal(parseRetryAfter(new Headers({ "retry-after-ms": "1500" }), now), 1.5);
  assert.equal(parseRetryAfter(new Headers({ "retry-after": "soon" }), now), undefined);
  assert.equal(parseRetryAfter(new Headers(), now), undefined);
});

Deno.test("quoted provider text is flattened and cut", () => {
  assert.equal(clip("line one\n\tline two\u0000"), "line one line two");
  assert.equal(clip("x".repeat(10_000)).length, ERROR_MESSAGE_MAX_CHARS);
});

Deno.test("transport failures are network errors; unknown throws are unknown", () => {
  const network = networkError("Could not reach the provider", new TypeError("refused"));
  assert.equal(network.category, "network");
  assert.equal(network.retryable, true);
  assert.equal(toProviderError(network), network);
  const unknown = toProviderError(new RangeError("boom"));
  assert.ok(unknown instanceof ProviderError);
  assert.equal(unknown.category, "unknown");
  assert.equal(unknown.retryable, false);
});

Deno.test("the provider's own message is kept from every error body shape real servers send", () => {
  const cases: [number, string, string][] = [
    // OpenAI, DeepSeek
    [
      401,
      json({
        error: {
          message: "Incorrect API key provided: sk-wro***.",
          type: "invalid_request_error",
          param: null,
          code: "invalid_api_key",
        },
      }),
      "Incorrect API key provided: sk-wro***.",
    ],
    // llama.cpp and newer vLLM: the status in `code`
    [
      400,
      json({
        error: {
          code: 400,
          message: "the request exceeds the available context size",
          type: "invalid_request_error",
        },
      }),
      "the request exceeds the available context size",
    ],
    // older vLLM: the error object at the top level
    [
      404,
      json({
        object: "error",
        message: "The model `x` does not exist.",
        type: "NotFoundError",
        param: null,
        code: 404,
      }),
      "The model `x` does not exist.",
    ],
    // Ollama: a string
    [
      404,
      json({ error: 'model "llama9" not found, try pulling it first' }),
      'model "llama9" not found, try pulling it first',
    ],
    // FastAPI validation errors
    [
      422,
      json({ detail: [{ loc: ["body", "messages"], msg: "field required", type: "missing" }] }),
      "body.messages: field required",
    ],
    // a gateway that wraps it in a list
    [
      429,
      json([{
        error: { code: 429, message: "Resource has been exhausted", status: "RESOURCE_EXHAUSTED" },
      }]),
      "Resource has been exhausted",
    ],
    // plain text
    [502, "upstream connect error", "upstream connect error"],
  ];
  for (const [status, body, message] of cases) {
    const error = errorFromResponse(status, new Headers(), body);
    assert.equal(error.providerMessage, message, body);
    assert.ok(error.message.includes(message), error.message);
  }
  assert.equal(errorFromResponse(500, new Headers(), "").providerMessage, undefined);
});
