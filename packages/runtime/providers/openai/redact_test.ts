import assert from "node:assert/strict";
import { ProviderError } from "../provider.ts";
import { REDACTED, SecretRedactor } from "./redact.ts";

const KEY = "sk-live-4f9a8b7c6d5e";

Deno.test("redacts exact credentials and every piece of 8 characters or more", () => {
  const redactor = new SecretRedactor([KEY, undefined, ""]);
  assert.equal(redactor.redact(`key ${KEY} here`), `key ${REDACTED} here`);
  assert.equal(redactor.redact(`piece ${KEY.slice(2, 12)}!`), `piece ${REDACTED}!`);
  assert.equal(redactor.redact(`short ${KEY.slice(0, 7)}`), `short ${KEY.slice(0, 7)}`);
  assert.equal(redactor.redact("nothing secret"), "nothing secret");
});

Deno.test("values shorter than 4 characters are not treated as credentials", () => {
  const redactor = new SecretRedactor(["on", "abcd"]);
  assert.equal(redactor.redact("only one abcd"), `only one ${REDACTED}`);
});

Deno.test("redactError cleans the message and the cause, keeping the details", () => {
  const redactor = new SecretRedactor([KEY]);
  const error = new ProviderError("rate_limit", `Bad key ${KEY}`, {
    status: 429,
    retryable: true,
    requestId: "req_1",
    retryAfterSec: 3,
    cause: new TypeError(`fetch failed with ${KEY}`),
  });
  const clean = redactor.redactError(error);
  assert.equal(clean.message, `Bad key ${REDACTED}`);
  assert.deepEqual(
    [clean.category, clean.status, clean.retryable, clean.requestId, clean.retryAfterSec],
    ["rate_limit", 429, true, "req_1", 3],
  );
  assert.ok(clean.cause instanceof Error);
  assert.equal(clean.cause.name, "TypeError");
  assert.equal(clean.cause.message, `fetch failed with ${REDACTED}`);
  assert.ok(!String(clean.cause.stack).includes(KEY.slice(0, 8)));
});

Deno.test("a clean error is returned as it is", () => {
  const redactor = new SecretRedactor([KEY]);
  const cause = new Error("harmless");
  const error = new ProviderError("network", "Could not connect", { cause });
  assert.equal(redactor.redactError(error), error);
});
