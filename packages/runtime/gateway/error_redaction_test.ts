import assert from "node:assert/strict";
import { Hono } from "hono";
import type { GatewayEnv } from "./key_auth.ts";
import { redactErrorBodies } from "./error_redaction.ts";

const SECRET = "sk-live-0123456789abcdef";

Deno.test("gateway errors: JSON error bodies are masked; successes and streams pass untouched", async () => {
  const app = new Hono<GatewayEnv>();
  app.use("*", redactErrorBodies((text) => text.replaceAll(SECRET, "[redacted]")));
  app.get(
    "/bad",
    (c) => c.json({ code: "invalid_param", message: `no ${SECRET}`, status: 400 }, 400),
  );
  app.get("/issues", (c) => c.json({ error: "x", issues: [{ input: SECRET }] }, 422));
  app.get("/ok", (c) => c.json({ answer: `quoted ${SECRET}` }));
  app.get("/text", (c) => c.text(`plain ${SECRET}`, 500));
  app.get(
    "/clean",
    (c) => c.json({ code: "not_found", message: "Task Not Exists.", status: 404 }, 404),
  );
  const bad = await app.request("/bad");
  assert.equal(bad.status, 400);
  assert.deepEqual(await bad.json(), {
    code: "invalid_param",
    message: "no [redacted]",
    status: 400,
  });
  assert.deepEqual(await (await app.request("/issues")).json(), {
    error: "x",
    issues: [{ input: "[redacted]" }],
  });
  assert.deepEqual(
    await (await app.request("/ok")).json(),
    { answer: `quoted ${SECRET}` },
    "a success was rewritten (an answer is the model's, not an error)",
  );
  assert.equal(
    await (await app.request("/text")).text(),
    `plain ${SECRET}`,
    "a non-JSON body was read",
  );
  const clean = await app.request("/clean");
  assert.equal(clean.status, 404);
  assert.deepEqual(await clean.json(), {
    code: "not_found",
    message: "Task Not Exists.",
    status: 404,
  });
});
