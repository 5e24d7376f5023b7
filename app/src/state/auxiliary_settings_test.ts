import assert from "node:assert/strict";
import type { Settings } from "@daedalus/client";
import { fakeCall, rpcFailure } from "./_fake_call.ts";
import {
  auxiliarySettingsView,
  emptyAuxiliarySettings,
  loadAuxiliarySettings,
  setAuxiliarySwitch,
  switchIsOn,
} from "./auxiliary_settings.ts";

const settings = (over: Partial<Settings> = {}): Settings => ({
  threadTitles: true,
  memoryRefinement: true,
  forcedOff: { threadTitles: false, memoryRefinement: false },
  compaction: { threshold: 0.9, enabled: true },
  defaultModel: null,
  ...over,
});

Deno.test("auxiliary settings: load fills the view; a failed read records the code", async () => {
  auxiliarySettingsView.value = emptyAuxiliarySettings();
  const ok = fakeCall({ "settings.read": () => ({ settings: settings({ threadTitles: false }) }) });
  await loadAuxiliarySettings(ok.call);
  assert.equal(auxiliarySettingsView.value.status, "ready");
  assert.equal(auxiliarySettingsView.value.settings?.threadTitles, false);

  const failing = fakeCall({
    "settings.read": () => {
      throw rpcFailure("config_invalid", "config.yaml is not valid");
    },
  });
  await loadAuxiliarySettings(failing.call);
  assert.equal(auxiliarySettingsView.value.status, "failed");
  assert.equal(auxiliarySettingsView.value.error?.code, "config_invalid");
  assert.equal(auxiliarySettingsView.value.settings?.threadTitles, false, "last answer kept");
});

Deno.test("auxiliary settings: a flip sends only that switch and shows the runtime's answer", async () => {
  auxiliarySettingsView.value = {
    ...emptyAuxiliarySettings(),
    status: "ready",
    settings: settings(),
  };
  const fake = fakeCall({
    "settings.update": (params) => ({ settings: settings(params as Partial<Settings>) }),
  });
  assert.equal(await setAuxiliarySwitch("memoryRefinement", false, fake.call), true);
  assert.deepEqual(fake.calls, [{
    method: "settings.update",
    params: { memoryRefinement: false },
  }]);
  assert.equal(auxiliarySettingsView.value.settings?.memoryRefinement, false);
  assert.equal(auxiliarySettingsView.value.settings?.threadTitles, true);
  assert.equal(auxiliarySettingsView.value.pending.size, 0);
});

Deno.test("auxiliary settings: a refused flip leaves the switch and records why", async () => {
  auxiliarySettingsView.value = {
    ...emptyAuxiliarySettings(),
    status: "ready",
    settings: settings(),
  };
  const fake = fakeCall({
    "settings.update": () => {
      throw rpcFailure("config_invalid", "config.yaml is not valid");
    },
  });
  assert.equal(await setAuxiliarySwitch("threadTitles", false, fake.call), false);
  assert.equal(auxiliarySettingsView.value.settings?.threadTitles, true);
  assert.equal(auxiliarySettingsView.value.error?.code, "config_invalid");
  assert.equal(auxiliarySettingsView.value.pending.size, 0);
});

Deno.test("auxiliary settings: a second flip of the same switch waits for the first", async () => {
  auxiliarySettingsView.value = {
    ...emptyAuxiliarySettings(),
    status: "ready",
    settings: settings(),
  };
  let release: () => void = () => {};
  const fake = fakeCall({
    "settings.update": () =>
      new Promise((resolve) => {
        release = () => resolve({ settings: settings({ threadTitles: false }) });
      }),
  });
  const first = setAuxiliarySwitch("threadTitles", false, fake.call);
  assert.equal(await setAuxiliarySwitch("threadTitles", true, fake.call), false);
  release();
  assert.equal(await first, true);
  assert.equal(fake.calls.length, 1);
});

Deno.test("auxiliary settings: a call forced off by the environment shows as off", () => {
  const forced = settings({ forcedOff: { threadTitles: true, memoryRefinement: false } });
  assert.equal(switchIsOn(forced, "threadTitles"), false);
  assert.equal(switchIsOn(forced, "memoryRefinement"), true);
  assert.equal(switchIsOn(settings({ memoryRefinement: false }), "memoryRefinement"), false);
});
