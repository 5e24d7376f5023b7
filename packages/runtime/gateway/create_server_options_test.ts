import assert from "node:assert/strict";
import { CreateServerOptionsError, resolveServerOptions } from "./create_server_options.ts";
import { DIFY_DEFAULT_PARAMETERS } from "./dify_parameters.ts";
import { createServer } from "./create_server.ts";

Deno.test("resolveServerOptions: the defaults", () => {
  const resolved = resolveServerOptions(undefined);
  assert.equal(resolved.checkKey, null);
  assert.equal(resolved.difyPrefix, "/v1");
  assert.equal(resolved.agUiPath, "/ag-ui");
  assert.deepEqual(resolved.parameters, DIFY_DEFAULT_PARAMETERS);
});

Deno.test("resolveServerOptions: parameters are laid over Dify's defaults field by field", () => {
  const { parameters } = resolveServerOptions({
    parameters: { opening_statement: "Hi", suggested_questions: ["What?"] },
  });
  assert.deepEqual(parameters, {
    ...DIFY_DEFAULT_PARAMETERS,
    opening_statement: "Hi",
    suggested_questions: ["What?"],
  });
});

Deno.test("resolveServerOptions: bad options are CreateServerOptionsError naming the option", () => {
  const cases: { options: unknown; says: RegExp }[] = [
    { options: "nope", says: /options:/ },
    { options: { apiKeys: [] }, says: /apiKeys: is empty/ },
    { options: { apiKeys: [""] }, says: /apiKeys\.0: a key is empty/ },
    { options: { apiKeys: "app-1" }, says: /apiKeys/ },
    { options: { difyPrefix: "v1" }, says: /difyPrefix: must be like/ },
    { options: { difyPrefix: "/v1/" }, says: /difyPrefix: must be like/ },
    { options: { agUiPath: "/a g" }, says: /agUiPath: must be like/ },
    { options: { difyPrefix: "/x", agUiPath: "/x" }, says: /both \/x/ },
    { options: { parameters: { opening_statement: 1 } }, says: /parameters\.opening_statement/ },
    { options: { parameters: { bogus: true } }, says: /parameters/ },
    { options: { apikeys: ["app-1"] }, says: /options: .*apikeys/i },
  ];
  for (const { options, says } of cases) {
    assert.throws(() => resolveServerOptions(options), (error: unknown) => {
      assert.ok(error instanceof CreateServerOptionsError, `${JSON.stringify(options)}: ${error}`);
      assert.equal(error.code, "invalid_create_server_options");
      assert.match(error.message, says, JSON.stringify(options));
      return true;
    });
  }
});

Deno.test("resolveServerOptions: a key list accepts exactly its keys", async () => {
  const { checkKey } = resolveServerOptions({ apiKeys: ["app-one", "app-two"] });
  assert.ok(checkKey);
  const cases = [["app-one", true], ["app-two", true], ["app-on", false], ["app-one ", false], [
    "",
    false,
  ], ["APP-ONE", false]] as const;
  for (const [key, want] of cases) assert.equal(await checkKey(key), want, `key ${key}`);
});

Deno.test("resolveServerOptions: a key function is used as it is", () => {
  const check = (key: string) => key === "k";
  assert.equal(resolveServerOptions({ apiKeys: check }).checkKey, check);
});

Deno.test("createServer: an invokeAgent that is not a function is a CreateServerOptionsError", () => {
  assert.throws(
    () => createServer("agent" as never),
    (error: unknown) =>
      error instanceof CreateServerOptionsError && /invokeAgent/.test(error.message),
  );
});
