import assert from "node:assert/strict";

const KEY = "sk-crash-0123456789abcdef";

/** Runs a script that installs log redaction for KEY and then fails as given. */
async function crashWith(failure: string): Promise<{ code: number; stderr: string }> {
  const module = new URL("./log_redaction.ts", import.meta.url).href;
  const values = new URL("./protected_values.ts", import.meta.url).href;
  const script = `
    import { installLogRedaction } from ${JSON.stringify(module)};
    import { ProtectedValues } from ${JSON.stringify(values)};
    const values = new ProtectedValues();
    values.register(${JSON.stringify(KEY)});
    installLogRedaction(() => values);
    ${failure}
  `;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--ext=ts", script],
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code: output.code, stderr: new TextDecoder().decode(output.stderr) };
}

Deno.test("an uncaught error or unhandled rejection is printed redacted, and still ends the process", async () => {
  for (
    const failure of [
      `Promise.reject(new Error("provider said: bad key ${KEY}"));`,
      `setTimeout(() => { throw new Error("provider said: bad key ${KEY}"); }, 0);`,
    ]
  ) {
    const { code, stderr } = await crashWith(failure);
    assert.equal(code, 1, stderr);
    assert.ok(!stderr.includes(KEY.slice(3, 11)), stderr);
    assert.match(stderr, /error: Uncaught .*provider said: bad key \[redacted\]/, stderr);
  }
});
