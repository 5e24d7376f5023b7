import assert from "node:assert/strict";
import { isSecretEnvName } from "./secret_env_names.ts";

const CASES: [string, boolean][] = [
  ["GITHUB_TOKEN", true],
  ["BRAVE_API_KEY", true],
  ["OPENAI_APIKEY", true],
  ["DB_PASSWORD", true],
  ["AWS_SECRET_ACCESS_KEY", true],
  ["api_key", true],
  ["TOKEN", true],
  ["SENTRY_DSN", true],
  ["GOOGLE_APPLICATION_CREDENTIALS", true],
  ["session-cookie", true],
  ["NODE_ENV", false],
  ["PATH", false],
  ["ROOT_DIR", false],
  ["KEYBOARD_LAYOUT", false],
  ["MONKEY", false],
  ["PASSTHROUGH", false],
  ["LOG_LEVEL", false],
];

for (const [name, secret] of CASES) {
  Deno.test(`${name} ${secret ? "is" : "is not"} a secret's name`, () => {
    assert.equal(isSecretEnvName(name), secret, `isSecretEnvName(${name})`);
  });
}
