import assert from "node:assert/strict";
import { handlerCalls } from "./_test_handler_calls.ts";
import type { MethodName, ResultOf, RpcError } from "@daedalus/protocol";
import { readConfig } from "@daedalus/storage";
import { ProviderError } from "../providers/provider.ts";
import { type ProviderConnection, ProviderRegistry } from "../providers/registry.ts";
import { ProtectedValues } from "../security/protected_values.ts";
import { createProviderHandlers, type DiscoverModels } from "./provider_handlers.ts";

const KEY = "sk-handlers-test-0123456789abcdef";
const HEADER_SECRET = "hdr-secret-value-424242";

type ProviderMethod = Extract<MethodName, `provider.${string}` | `model.${string}`>;

interface Home {
  configPath: string;
  registry: ProviderRegistry;
  protectedValues: ProtectedValues;
  made: ProviderConnection[];
  /** Calls a method as the dispatcher does: params and result validated. */
  call<M extends ProviderMethod>(method: M, params: unknown): Promise<ResultOf<M>>;
  /** Calls a method that must fail; returns the error. */
  refuse(method: ProviderMethod, params: unknown): Promise<RpcError>;
  /** Everything sent back so far, as JSON. */
  wire: string[];
}

async function withHome(
  fn: (home: Home) => Promise<void>,
  options: { discover?: DiscoverModels; configText?: string } = {},
) {
  const dir = await Deno.makeTempDir({ prefix: "daedalus-providers-" });
  const configPath = `${dir}/config.yaml`;
  if (options.configText !== undefined) await Deno.writeTextFile(configPath, options.configText);
  const made: ProviderConnection[] = [];
  const initial = options.configText === undefined
    ? await readConfig(configPath)
    : { version: 1 as const, providers: {}, skills: { disabled: [] } };
  const registry = new ProviderRegistry(initial, {
    createProvider: (connection) => {
      made.push(connection);
      return { id: connection.id, models: connection.models, stream: () => ({}) as never };
    },
  });
  const protectedValues = ProtectedValues.fromConfig(initial);
  const handlers = createProviderHandlers({
    configPath,
    registry,
    protectedValues,
    ...(options.discover ? { discover: options.discover } : {}),
  });
  const wire: string[] = [];
  const { call, refuse } = handlerCalls(handlers, (json) => wire.push(json));
  try {
    await fn({ configPath, registry, protectedValues, made, call, refuse, wire });
    for (const text of wire) {
      assert.ok(!text.includes(KEY), `the API key was sent back: ${text}`);
      assert.ok(!text.includes(HEADER_SECRET), `a header value was sent back: ${text}`);
      assert.ok(!text.includes(KEY.slice(10, 18)), `a piece of the key was sent back: ${text}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * A `/models` endpoint on a real socket. (Package tests may not import the top-level
 * tests/fixtures; this is the part of the fake OpenAI server discovery needs.)
 */
function startModelsServer() {
  const requests: { path: string; headers: Record<string, string> }[] = [];
  const queue: { json: unknown; status?: number }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    requests.push({
      path: new URL(request.url).pathname,
      headers: Object.fromEntries(request.headers),
    });
    const next = queue.shift() ?? { json: { error: { message: "nothing enqueued" } }, status: 400 };
    return Response.json(next.json, { status: next.status ?? 200 });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/v1`,
    requests,
    enqueue: (...responses: { json: unknown; status?: number }[]) => void queue.push(...responses),
    close: () => server.shutdown(),
  };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("provider.list on a fresh home shows DeepSeek unconfigured and writes nothing", async () => {
  await withHome(async ({ call, configPath }) => {
    const { providers } = await call("provider.list", {});
    assert.deepEqual(providers.map((p) => [p.id, p.origin, p.configured]), [
      ["deepseek", "builtin", false],
    ]);
    assert.deepEqual((await call("model.list", {})).models, []);
    assert.equal(await exists(configPath), false, "reads must not create config.yaml");
  });
});

Deno.test("configuring DeepSeek saves the key (0600) and the profile's models", async () => {
  await withHome(async ({ call, configPath, registry }) => {
    const { provider } = await call("provider.configure", { kind: "deepseek", apiKey: KEY });
    assert.deepEqual(provider, {
      id: "deepseek",
      displayName: "DeepSeek",
      origin: "builtin",
      configured: true,
      credentialConfigured: true,
      health: "unknown",
      baseUrl: "https://api.deepseek.com/v1",
    });
    const text = await Deno.readTextFile(configPath);
    assert.ok(text.includes(`api_key: ${KEY}`), "the key is stored in config.yaml");
    assert.ok(text.includes("preset: deepseek"));
    if (Deno.build.os !== "windows") {
      assert.equal((await Deno.stat(configPath)).mode! & 0o777, 0o600);
    }
    const saved = (await readConfig(configPath)).providers.deepseek;
    assert.deepEqual(
      Object.entries(saved.models).map(([id, model]) => [id, model.enabled, model.context_window]),
      [
        ["deepseek-v4-flash", true, 1_000_000],
        ["deepseek-v4-pro", false, 1_000_000],
        ["deepseek-v4-flash-vision-exp", false, 1_000_000],
      ],
    );
    assert.equal(registry.resolveModel("deepseek", "deepseek-v4-flash").model.contextWindow, 1e6);
    const { models } = await call("model.list", { providerId: "deepseek" });
    assert.equal(models.length, 3);
    assert.deepEqual((await call("provider.list", {})).providers[0].credentialConfigured, true);
  });
});

Deno.test("configuring DeepSeek with a model list saves those; omitting key and models keeps them", async () => {
  await withHome(async ({ call, configPath }) => {
    await call("provider.configure", {
      kind: "deepseek",
      apiKey: KEY,
      models: [{
        id: "deepseek-v4-flash",
        displayName: "DeepSeek V4 Flash",
        contextWindow: 1000000,
      }],
    });
    await call("provider.configure", { kind: "deepseek" });
    const saved = (await readConfig(configPath)).providers.deepseek;
    assert.equal(saved.api_key, KEY, "the saved key is kept");
    assert.deepEqual(Object.keys(saved.models), ["deepseek-v4-flash"]);
  });
});

Deno.test("configuring a custom provider saves it; refusals name the field", async () => {
  await withHome(async ({ call, refuse, configPath }) => {
    const params = {
      kind: "custom",
      providerId: "local",
      displayName: "Local",
      baseUrl: "http://127.0.0.1:11434/v1",
      headers: { "X-Team-Token": HEADER_SECRET },
      apiKey: KEY,
      models: [{ id: "qwen3:32b", displayName: "Qwen3 32B", contextWindow: 32768 }],
    };
    const { provider } = await call("provider.configure", params);
    assert.equal(provider.origin, "custom");
    assert.equal(provider.credentialConfigured, true);
    assert.equal(provider.displayName, "Local");
    const saved = (await readConfig(configPath)).providers.local;
    assert.deepEqual(saved.headers, { "X-Team-Token": HEADER_SECRET });
    assert.deepEqual(saved.models["qwen3:32b"], {
      display_name: "Qwen3 32B",
      enabled: true,
      supports_tools: true,
      context_window: 32768,
    });
    const before = await Deno.readTextFile(configPath);

    const refusals: [unknown, string, string][] = [
      [{ ...params, providerId: "deepseek" }, "provider_builtin", "providerId"],
      [{ ...params, models: [{ id: "a" }, { id: "a" }] }, "invalid_params", "models.1.id"],
      [
        { ...params, models: [{ id: "a", reasoningEfforts: ["low"], reasoningEffort: "high" }] },
        "invalid_params",
        "models.0.reasoningEffort",
      ],
      [
        { ...params, models: [{ id: "a", reasoningEfforts: ["low", "low"] }] },
        "invalid_params",
        "models.0.reasoningEfforts",
      ],
      [{ ...params, displayName: "Local\u0007" }, "invalid_params", "displayName"],
      [{ ...params, headers: { "Bad Header": "x" } }, "invalid_params", "headers.Bad Header"],
      [{ ...params, displayName: `My ${KEY.slice(4, 16)}` }, "protected_value", "displayName"],
      [
        { ...params, models: [{ id: "m", displayName: HEADER_SECRET }] },
        "protected_value",
        "models.0.displayName",
      ],
    ];
    for (const [refused, reasonCode, field] of refusals) {
      const error = await refuse("provider.configure", refused);
      assert.equal(error.code, -32602, error.message);
      assert.equal(error.reasonCode, reasonCode, error.message);
      assert.equal(error.data.field, field, error.message);
    }
    assert.equal(await Deno.readTextFile(configPath), before, "refusals write nothing");
  });
});

Deno.test("a custom provider keeps its saved key only while its origin stays the same", async () => {
  await withHome(async ({ call, configPath }) => {
    const params = {
      kind: "custom",
      providerId: "local",
      displayName: "Local",
      baseUrl: "http://127.0.0.1:11434/v1",
      apiKey: KEY,
      models: [{ id: "qwen3:32b", reasoningEfforts: ["low", "high"], reasoningEffort: "high" }],
    };
    await call("provider.configure", params);
    const { apiKey: _key, ...withoutKey } = params;
    await call("provider.configure", {
      ...withoutKey,
      displayName: "Local 2",
      models: [{ id: "qwen3:32b" }],
    });
    let saved = (await readConfig(configPath)).providers.local;
    assert.equal(saved.api_key, KEY);
    assert.equal(saved.display_name, "Local 2");
    assert.equal(saved.models["qwen3:32b"].reasoning_effort, "high", "omitted fields are kept");
    const { provider } = await call("provider.configure", {
      ...withoutKey,
      baseUrl: "http://127.0.0.1:8000/v1",
    });
    saved = (await readConfig(configPath)).providers.local;
    assert.equal(saved.api_key, undefined, "the key is not carried to another origin");
    assert.equal(provider.credentialConfigured, false);
  });
});

Deno.test("discover_models uses a given key without saving it, and maps profile defaults", async () => {
  const fake = startModelsServer();
  const configText = [
    "version: 1",
    "providers:",
    "  deepseek:",
    "    type: openai_compatible",
    "    preset: deepseek",
    `    base_url: ${fake.url}`,
    "",
  ].join("\n");
  try {
    await withHome(async ({ call, refuse, configPath, protectedValues }) => {
      fake.enqueue({
        json: {
          object: "list",
          data: [
            { id: "deepseek-v4-flash", object: "model" },
            { id: "deepseek-v4-pro", object: "model" },
            { id: "deepseek-experimental", object: "model" },
            { id: `leak-${KEY}`, object: "model" },
          ],
        },
      });
      const { models } = await call("provider.discover_models", { kind: "deepseek", apiKey: KEY });
      assert.deepEqual(models, [
        { id: "deepseek-v4-flash", displayName: "DeepSeek V4 Flash", contextWindow: 1_000_000 },
        { id: "deepseek-v4-pro", displayName: "DeepSeek V4 Pro", contextWindow: 1_000_000 },
        {
          id: "deepseek-experimental",
          displayName: "deepseek-experimental",
          contextWindow: 32_768,
        },
      ], "a model id carrying the key is dropped");
      assert.equal(fake.requests[0].path, "/v1/models");
      assert.equal(fake.requests[0].headers.authorization, `Bearer ${KEY}`);
      assert.equal(await Deno.readTextFile(configPath), configText, "the key is not saved");
      assert.ok(protectedValues.find(KEY), "the key is protected from now on");

      fake.enqueue({
        json: { error: { message: `Invalid API key ${KEY}`, type: "authentication_error" } },
        status: 401,
      });
      const error = await refuse("provider.discover_models", { kind: "deepseek", apiKey: KEY });
      assert.equal(error.code, -32010);
      assert.equal(error.reasonCode, "provider_authentication");
    }, { configText });
  } finally {
    await fake.close();
  }
});

Deno.test("discover_models for a custom provider reuses its saved key on the same origin only", async () => {
  const fake = startModelsServer();
  try {
    await withHome(async ({ call }) => {
      await call("provider.configure", {
        kind: "custom",
        providerId: "local",
        displayName: "Local",
        baseUrl: fake.url,
        apiKey: KEY,
        headers: { "X-Team-Token": HEADER_SECRET },
        models: [],
      });
      fake.enqueue({ json: { data: [{ id: "qwen3:32b", context_length: 131072 }] } });
      const { models } = await call("provider.discover_models", {
        kind: "custom",
        providerId: "local",
        baseUrl: fake.url,
      });
      assert.deepEqual(models, [{
        id: "qwen3:32b",
        displayName: "qwen3:32b",
        contextWindow: 131072,
      }]);
      assert.equal(fake.requests[0].headers.authorization, `Bearer ${KEY}`);
      assert.equal(fake.requests[0].headers["x-team-token"], HEADER_SECRET);

      const other = startModelsServer();
      try {
        other.enqueue({ json: { data: [] } });
        await call("provider.discover_models", {
          kind: "custom",
          providerId: "local",
          baseUrl: other.url,
        });
        assert.equal(other.requests[0].headers.authorization, undefined, "no key for another port");
        assert.equal(other.requests[0].headers["x-team-token"], undefined);
      } finally {
        await other.close();
      }
    });
  } finally {
    await fake.close();
  }
});

Deno.test("discovery failures become -32010 provider_<category> without the key", async () => {
  const failing: DiscoverModels = () =>
    Promise.reject(new ProviderError("rate_limit", "Too many requests", { retryAfterSec: 3 }));
  await withHome(async ({ refuse }) => {
    const error = await refuse("provider.discover_models", { kind: "deepseek", apiKey: KEY });
    assert.equal(error.code, -32010);
    assert.equal(error.reasonCode, "provider_rate_limit");
    assert.equal(error.data.retryAfterSec, 3);
  }, { discover: failing });
  const leaky: DiscoverModels = () => Promise.reject(new ProviderError("network", `down ${KEY}`));
  await withHome(async ({ refuse }) => {
    const error = await refuse("provider.discover_models", { kind: "deepseek", apiKey: KEY });
    assert.equal(error.reasonCode, "provider_network");
    assert.equal(error.message, "down [redacted]");
  }, { discover: leaky });
  const broken: DiscoverModels = () => Promise.reject(new TypeError(`boom ${KEY}`));
  await withHome(async ({ refuse }) => {
    const error = await refuse("provider.discover_models", { kind: "deepseek" });
    assert.equal(error.reasonCode, "provider_unknown");
  }, { discover: broken });
});

Deno.test("disconnect forgets DeepSeek; custom and unknown providers are refused", async () => {
  await withHome(async ({ call, refuse, configPath, registry }) => {
    await call("provider.configure", { kind: "deepseek", apiKey: KEY });
    assert.ok(registry.provider("deepseek"));
    const { provider } = await call("provider.disconnect", { providerId: "deepseek" });
    assert.equal(provider.configured, false);
    assert.equal(provider.credentialConfigured, false);
    assert.equal((await readConfig(configPath)).providers.deepseek, undefined);
    assert.equal(registry.provider("deepseek"), undefined, "the adapter is gone");
    assert.equal(
      (await call("provider.disconnect", { providerId: "deepseek" })).provider.configured,
      false,
      "disconnecting twice is harmless",
    );

    await call("provider.configure", {
      kind: "custom",
      providerId: "local",
      displayName: "Local",
      baseUrl: "http://127.0.0.1:11434/v1",
      models: [],
    });
    const custom = await refuse("provider.disconnect", { providerId: "local" });
    assert.equal(custom.reasonCode, "invalid_params");
    assert.match(custom.message, /provider\.remove/);
    const unknown = await refuse("provider.disconnect", { providerId: "nope" });
    assert.equal(unknown.reasonCode, "provider_not_found");
  });
});

Deno.test("remove deletes a custom provider; the built-in and unknown ones are refused", async () => {
  await withHome(async ({ call, refuse, configPath }) => {
    await call("provider.configure", {
      kind: "custom",
      providerId: "local",
      displayName: "Local",
      baseUrl: "http://127.0.0.1:11434/v1",
      models: [{ id: "qwen3:32b" }],
    });
    assert.deepEqual(await call("provider.remove", { providerId: "local" }), {
      removed: true,
      providerId: "local",
    });
    assert.deepEqual(Object.keys((await readConfig(configPath)).providers), []);
    assert.equal(
      (await refuse("provider.remove", { providerId: "deepseek" })).reasonCode,
      "provider_builtin",
    );
    assert.equal(
      (await refuse("provider.remove", { providerId: "local" })).reasonCode,
      "provider_not_found",
    );
    assert.equal(
      (await refuse("model.list", { providerId: "local" })).reasonCode,
      "provider_not_found",
    );
  });
});

Deno.test("set_enabled turns profile models on and off and rebuilds the adapter", async () => {
  const configText = "version: 1\nproviders:\n  deepseek:\n    type: openai_compatible\n" +
    `    base_url: https://api.deepseek.com/v1\n    api_key: ${KEY}\n`;
  await withHome(async ({ call, refuse, registry, made, configPath }) => {
    await call("model.list", {});
    const first = registry.provider("deepseek");
    assert.deepEqual(first?.models, ["deepseek-v4-flash"]);
    const selection = () => registry.resolveModel("deepseek", "deepseek-v4-pro");
    assert.throws(selection, (error: RpcError) => error.reasonCode === "model_selection_required");

    const { model } = await call("model.set_enabled", {
      providerId: "deepseek",
      modelId: "deepseek-v4-pro",
      enabled: true,
    });
    assert.deepEqual(model, {
      providerId: "deepseek",
      id: "deepseek-v4-pro",
      displayName: "DeepSeek V4 Pro",
      enabled: true,
      contextWindow: 1_000_000,
      supportsTools: true,
      reasoningEffort: null,
      reasoningEfforts: [],
    });
    const second = registry.provider("deepseek");
    assert.notEqual(second, first, "the adapter is rebuilt for the new model list");
    assert.deepEqual(second?.models, ["deepseek-v4-flash", "deepseek-v4-pro"]);
    assert.equal(made.length, 2);
    assert.equal(selection().model.id, "deepseek-v4-pro");
    const saved = (await readConfig(configPath)).providers.deepseek.models;
    assert.deepEqual(Object.keys(saved), [
      "deepseek-v4-flash",
      "deepseek-v4-pro",
      "deepseek-v4-flash-vision-exp",
    ], "the profile's models are written out");

    const unknownModel = await refuse("model.set_enabled", {
      providerId: "deepseek",
      modelId: "nope",
      enabled: true,
    });
    assert.equal(unknownModel.reasonCode, "model_not_found");
    assert.equal(unknownModel.data.field, "modelId");
    const unknownProvider = await refuse("model.set_enabled", {
      providerId: "other",
      modelId: "x",
      enabled: true,
    });
    assert.equal(unknownProvider.reasonCode, "provider_not_found");
  }, { configText });
});

Deno.test("set_limits sets the window and effort levels; bad combinations are refused", async () => {
  await withHome(async ({ call, refuse, registry }) => {
    await call("provider.configure", { kind: "deepseek", apiKey: KEY });
    const { model } = await call("model.set_limits", {
      providerId: "deepseek",
      modelId: "deepseek-v4-flash",
      contextWindow: 500000,
      reasoningEfforts: ["low", "high", "max"],
      reasoningEffort: "high",
    });
    assert.equal(model.contextWindow, 500000);
    assert.deepEqual(model.reasoningEfforts, ["low", "high", "max"]);
    assert.equal(model.reasoningEffort, "high");
    assert.equal(
      registry.resolveModel("deepseek", "deepseek-v4-flash").model.reasoningEffort,
      "high",
    );

    const target = { providerId: "deepseek", modelId: "deepseek-v4-flash" };
    const repeated = await refuse("model.set_limits", {
      ...target,
      reasoningEfforts: ["low", "low"],
    });
    assert.equal(repeated.reasonCode, "invalid_params");
    assert.equal(repeated.data.field, "reasoningEfforts");
    const outside = await refuse("model.set_limits", { ...target, reasoningEffort: "xhigh" });
    assert.equal(outside.reasonCode, "invalid_params");
    assert.equal(outside.data.field, "reasoningEffort");

    const narrowed = await call("model.set_limits", { ...target, reasoningEfforts: ["low"] });
    assert.equal(narrowed.model.reasoningEffort, null, "a default no longer offered is dropped");
    const auto = await call("model.set_limits", { ...target, reasoningEffort: "low" });
    assert.equal(auto.model.reasoningEffort, "low");
    const cleared = await call("model.set_limits", { ...target, reasoningEffort: null });
    assert.equal(cleared.model.reasoningEffort, null);
    assert.equal(cleared.model.contextWindow, 500000, "fields left out are kept");
  });
});

Deno.test("a config.yaml that does not parse is reported and never overwritten", async () => {
  const configText = `version: 1\nproviders:\n  deepseek:\n    api_key: "${KEY}\n    base_url: [\n`;
  await withHome(async ({ refuse, configPath }) => {
    const calls: [ProviderMethod, unknown][] = [
      ["provider.list", {}],
      ["provider.configure", { kind: "deepseek", apiKey: KEY }],
      ["provider.discover_models", { kind: "deepseek" }],
      ["provider.disconnect", { providerId: "deepseek" }],
      ["provider.remove", { providerId: "local" }],
      ["model.list", {}],
      ["model.set_enabled", { providerId: "deepseek", modelId: "deepseek-v4-pro", enabled: true }],
      ["model.set_limits", { providerId: "deepseek", modelId: "deepseek-v4-pro" }],
    ];
    for (const [method, params] of calls) {
      const error = await refuse(method, params);
      assert.equal(error.reasonCode, "config_invalid", `${method}: ${error.message}`);
      assert.ok(error.message.includes(configPath), `${method} names the file: ${error.message}`);
    }
    assert.equal(await Deno.readTextFile(configPath), configText);
  }, { configText });
});

Deno.test("a config.yaml that fails validation is reported with its key path", async () => {
  const configText = "version: 1\nproviders:\n  local:\n    type: openai_compatible\n" +
    "    base_url: http://127.0.0.1:1/v1\n    models:\n      m:\n        context_window: -1\n";
  await withHome(async ({ refuse, configPath }) => {
    const error = await refuse("model.list", {});
    assert.equal(error.reasonCode, "config_invalid");
    assert.match(error.message, /providers\.local\.models\.m\.context_window/);
    assert.equal(await Deno.readTextFile(configPath), configText);
  }, { configText });
});
