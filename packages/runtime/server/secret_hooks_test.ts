/** The server tells the runtime every secret it issues, so the runtime can protect it. */
import assert from "node:assert/strict";
import { rotateToken, TokenStore } from "./auth_token.ts";
import { SessionStore } from "./session_store.ts";
import { installLogRedaction } from "../security/log_redaction.ts";
import { ProtectedValues } from "../security/protected_values.ts";

Deno.test("the token store reports the token at open and after a rotation", async () => {
  const home = await Deno.makeTempDir({ prefix: "daedalus_secret_hooks_" });
  try {
    const issued: string[] = [];
    const tokens = await TokenStore.open(`${home}/auth.json`, {
      recheckIntervalMs: 0,
      onSecretIssued: (secret) => issued.push(secret),
    });
    const first = JSON.parse(await Deno.readTextFile(`${home}/auth.json`)).token;
    assert.deepEqual(issued, [first]);
    const second = await rotateToken(`${home}/auth.json`);
    await tokens.refresh({ force: true });
    assert.deepEqual(issued, [first, second], "a rotation by another process is reported");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("the session store reports each session id as it is issued", () => {
  const issued: string[] = [];
  const sessions = new SessionStore({ onSecretIssued: (secret) => issued.push(secret) });
  const id = sessions.create("generation-1");
  assert.deepEqual(issued, [id]);
  assert.notEqual(sessions.resolve(id, "generation-1"), null);
});

Deno.test("log redaction redacts every console line", () => {
  const values = new ProtectedValues();
  values.register("0123456789abcdef0123");
  const written: string[] = [];
  const original = { error: console.error, warn: console.warn };
  console.error = (...args: unknown[]) => written.push(args.join(" "));
  console.warn = (...args: unknown[]) => written.push(args.join(" "));
  const logs = installLogRedaction(() => values);
  try {
    console.error("failed:", { token: "0123456789abcdef0123" });
    console.error(`plain 0123456789abcdef0123`);
    console.warn("Open http://x/#token=0123456789abcdef0123");
  } finally {
    logs.uninstall();
    console.error = original.error;
    console.warn = original.warn;
  }
  assert.deepEqual(written, [
    'failed: { token: "[redacted]" }',
    "plain [redacted]",
    "Open http://x/#token=[redacted]",
  ]);
});
