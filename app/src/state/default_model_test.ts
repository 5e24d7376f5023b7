import assert from "node:assert/strict";
import type { Model, Settings } from "@daedalus/client";
import {
  defaultModelView,
  emptyDefaultModel,
  loadDefaultModel,
  modelKey,
  modelLabel,
  modelOfChoice,
  saveDefaultModel,
} from "./default_model.ts";
import { conversation, defaultModel, models, selectedModel } from "./store.ts";
import { fakeCall, rpcFailure } from "./_fake_call.ts";

const SMALL = { providerId: "local", modelId: "small" };
const BIG = { providerId: "local", modelId: "big" };

const settings = (defaultModel: Settings["defaultModel"]): Settings => ({
  threadTitles: true,
  memoryRefinement: true,
  forcedOff: { threadTitles: false, memoryRefinement: false },
  compaction: { threshold: 0.9, enabled: true },
  defaultModel,
});

const model = (ref: typeof SMALL): Model =>
  ({
    providerId: ref.providerId,
    id: ref.modelId,
    displayName: ref.modelId,
    enabled: true,
  }) as Model;

/** The store as on the start screen with both models enabled and `small` picked. */
function startScreen(): void {
  defaultModelView.value = emptyDefaultModel();
  conversation.value = null;
  models.value = [model(SMALL), model(BIG)];
  selectedModel.value = "local/small";
  defaultModel.value = null;
}

Deno.test("modelKey and modelOfChoice: providerId/modelId both ways, the first slash divides", () => {
  assert.equal(modelKey(SMALL), "local/small");
  assert.equal(modelKey(null), null);
  assert.deepEqual(modelOfChoice("local/org/model"), { providerId: "local", modelId: "org/model" });
  assert.equal(modelOfChoice(""), null, "the empty choice is none");
  assert.equal(modelOfChoice("local/"), null);
  assert.equal(modelOfChoice("/small"), null);
});

Deno.test("modelLabel: the display name, else the key of a model no longer listed", () => {
  const list = [{ ...model(SMALL), displayName: "Small one" }];
  assert.equal(modelLabel(list, SMALL), "Small one");
  assert.equal(modelLabel(list, BIG), "local/big");
});

Deno.test("default model: a load shows it but the composer keeps the user's pick", async () => {
  startScreen();
  const fake = fakeCall({ "settings.read": () => ({ settings: settings(BIG) }) });
  await loadDefaultModel(fake.call);
  assert.equal(defaultModelView.value.status, "ready");
  assert.deepEqual(defaultModelView.value.model, BIG);
  assert.equal(defaultModel.value, "local/big", "the store did not learn the default");
  assert.equal(selectedModel.value, "local/small", "a load must not switch the composer");
});

Deno.test("default model: a save sends it, shows the answer and the composer follows", async () => {
  startScreen();
  const fake = fakeCall({
    "settings.update": (params) => ({ settings: settings(params.defaultModel as typeof BIG) }),
  });
  assert.equal(await saveDefaultModel(BIG, fake.call), true);
  assert.deepEqual(fake.calls, [{ method: "settings.update", params: { defaultModel: BIG } }]);
  assert.deepEqual(defaultModelView.value.model, BIG);
  assert.equal(selectedModel.value, "local/big", "the start screen's composer did not follow");
  assert.equal(await saveDefaultModel(null, fake.call), true);
  assert.equal(defaultModelView.value.model, null);
  assert.equal(defaultModel.value, null);
  assert.equal(selectedModel.value, "local/big", "clearing the default keeps the pick");
});

Deno.test("default model: a thread that ran with its own model keeps it", async () => {
  startScreen();
  conversation.value = {
    threadId: "thread_1",
    snapshotSeq: 1,
    appliedSeq: 1,
    pending: [],
    turns: [{ id: "turn_1", ordinal: 1, runs: [{ providerId: "local", modelId: "small" }] }],
  } as never;
  const fake = fakeCall({ "settings.update": () => ({ settings: settings(BIG) }) });
  assert.equal(await saveDefaultModel(BIG, fake.call), true);
  assert.equal(defaultModel.value, "local/big");
  assert.equal(selectedModel.value, "local/small", "the thread's own model was replaced");
  conversation.value = null;
});

Deno.test("default model: a refusal is kept with its reason and changes nothing", async () => {
  startScreen();
  defaultModelView.value = { ...emptyDefaultModel(), status: "ready", model: SMALL };
  const fake = fakeCall({
    "settings.update": () => {
      throw rpcFailure("model_not_found", "Model gone is not configured");
    },
  });
  assert.equal(await saveDefaultModel({ providerId: "local", modelId: "gone" }, fake.call), false);
  assert.equal(defaultModelView.value.error?.code, "model_not_found");
  assert.deepEqual(defaultModelView.value.model, SMALL, "a refused model must not show");
  assert.equal(defaultModelView.value.pending, false);
  assert.equal(selectedModel.value, "local/small");
});
