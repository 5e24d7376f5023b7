/**
 * Which model a prepared Run gets (issue 21): the request's, else the agent profile's,
 * else Settings' default model (config.yaml `agents.default_model`), else the Run is
 * refused with `model_selection_required`. Real parts: a state store, a config.yaml, the
 * provider registry reading it.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { RpcError } from "@daedalus/protocol";
import { createThread, homePaths, readConfig, StateStore } from "@daedalus/storage";
import { ProviderRegistry } from "../providers/registry.ts";
import { RunConfigFreezer } from "./run_config_freezer.ts";
import { prepareRun, type RunPreparationDeps } from "./run_preparation.ts";

const PROVIDERS = "providers:\n  local:\n    type: openai_compatible\n" +
  "    base_url: http://127.0.0.1:9/v1\n    models:\n" +
  "      small: {reasoning_efforts: [low, high], reasoning_effort: low}\n" +
  "      big: {}\n      other: {}\n";
const PINNED = "    - id: pinned\n      name: Pinned\n      permission: ask\n" +
  "      model: {providerId: local, modelId: big, reasoningEffort: high}\n" +
  "      memory: {recall: false, memoryFile: false}\n";

/** A home with config.yaml (`agents` is the section's body) and two threads. */
async function withHome(
  agents: string,
  body: (
    deps: RunPreparationDeps,
    threads: { build: string; pinned: string },
  ) => Promise<void>,
) {
  const home = await Deno.makeTempDir({ prefix: "daedalus-run-preparation-" });
  const paths = homePaths(home);
  await Deno.writeTextFile(
    paths.config,
    `version: 1\n${PROVIDERS}agents:\n  profiles:\n${PINNED}${agents}`,
  );
  const store = StateStore.open(paths.stateDb);
  try {
    const workspacesRoot = join(home, "ws");
    const build = (await createThread(store, { workspacesRoot })).result.thread.id;
    const pinned = (await createThread(store, { workspacesRoot, agentId: "pinned" }))
      .result.thread.id;
    const deps: RunPreparationDeps = {
      store,
      configPath: paths.config,
      registry: new ProviderRegistry(await readConfig(paths.config)),
      tools: new Map(),
      freezer: new RunConfigFreezer(join(home, "skills"), paths.config),
    };
    await body(deps, { build, pinned });
  } finally {
    store.close();
    await Deno.remove(home, { recursive: true });
  }
}

const DEFAULT_OTHER = "  default_model: {provider_id: local, model_id: other}\n";

Deno.test("a profile without a model runs the default model; the model's own effort applies", async () => {
  await withHome(
    "  default_model: {provider_id: local, model_id: small}\n",
    async (deps, threads) => {
      const config = await prepareRun(deps, { threadId: threads.build });
      assert.deepEqual(
        [config.providerId, config.modelId, config.reasoningEffort],
        ["local", "small", "low"],
      );
      assert.equal(config.agent?.profile.id, "build", "the thread's own profile is frozen");
      assert.equal(config.agent?.profile.model, undefined, "the profile itself stays unset");
    },
  );
});

Deno.test("the request's model wins over the profile's and the default; the profile's over the default", async () => {
  await withHome(DEFAULT_OTHER, async (deps, threads) => {
    const asked = await prepareRun(deps, {
      threadId: threads.pinned,
      providerId: "local",
      modelId: "small",
    });
    assert.deepEqual([asked.modelId, asked.reasoningEffort], ["small", "low"]);
    const own = await prepareRun(deps, { threadId: threads.pinned });
    assert.deepEqual(
      [own.modelId, own.reasoningEffort],
      ["big", "high"],
      "the profile's model (and its effort) must beat the default model",
    );
  });
});

Deno.test("without a request, profile or default model the Run is refused with model_selection_required", async () => {
  await withHome("", async (deps, threads) => {
    await assert.rejects(
      prepareRun(deps, { threadId: threads.build }),
      (error: unknown) =>
        error instanceof RpcError && error.reasonCode === "model_selection_required" &&
        /no default model/.test(error.message),
      "a Run without any model was not refused",
    );
  });
});

Deno.test("a default model no longer configured fails with the registry's reason, not silently", async () => {
  await withHome(
    "  default_model: {provider_id: local, model_id: gone}\n",
    async (deps, threads) => {
      await assert.rejects(
        prepareRun(deps, { threadId: threads.build }),
        (error: unknown) =>
          error instanceof RpcError && error.reasonCode === "model_not_configured" &&
          /gone/.test(error.message),
        "a stale default model was not refused naming it",
      );
    },
  );
});
