import assert from "node:assert/strict";
import type { Settings } from "@daedalus/client";
import { inEnglish, inLocale, renderedText as text } from "../../_testing.ts";
import { CompactionControlList } from "./CompactionControls.tsx";
import {
  auxiliarySettingsView,
  emptyAuxiliarySettings,
  setCompaction,
} from "../../state/auxiliary_settings.ts";
import { fakeCall, rpcFailure } from "../../state/_fake_call.ts";

const settings = (compaction: Settings["compaction"]): Settings => ({
  threadTitles: true,
  memoryRefinement: true,
  forcedOff: { threadTitles: false, memoryRefinement: false },
  compaction,
  defaultModel: null,
});

/** The props of the first element of `type` in a rendered tree. */
function propsOf(node: unknown, type: string): Record<string, unknown> | null {
  if (node === null || typeof node !== "object") return null;
  if (Array.isArray(node)) {
    for (const child of node) {
      const found = propsOf(child, type);
      if (found) return found;
    }
    return null;
  }
  const vnode = node as { type?: unknown; props?: Record<string, unknown> };
  if (vnode.type === type) return vnode.props ?? {};
  return propsOf(vnode.props?.children, type);
}

const ready = (compaction: Settings["compaction"]) => ({
  ...emptyAuxiliarySettings(),
  status: "ready" as const,
  settings: settings(compaction),
});

Deno.test("compaction controls: the switch and the threshold show the runtime's setting", () => {
  inEnglish(() => {
    const on = text(CompactionControlList({ view: ready({ threshold: 0.9, enabled: true }) }));
    assert.match(on, /Compact long conversations.*compacts its context.*On/);
    assert.match(on, /Compact at.*90 % of the window/);
    const onView = CompactionControlList({ view: ready({ threshold: 0.9, enabled: true }) });
    assert.equal(propsOf(onView, "select")?.value, "90", "the threshold selected");
    assert.equal(propsOf(onView, "select")?.disabled, false);
    assert.equal(propsOf(onView, "button")?.["aria-checked"], true);
    const off = text(CompactionControlList({ view: ready({ threshold: 0.75, enabled: false }) }));
    assert.match(off, /no longer fits fails.*Compact now.*Off/);
    const offView = CompactionControlList({ view: ready({ threshold: 0.75, enabled: false }) });
    assert.equal(propsOf(offView, "select")?.value, "75");
    assert.equal(propsOf(offView, "select")?.disabled, true, "no threshold while off");
    assert.equal(propsOf(offView, "button")?.["aria-checked"], false);
    assert.equal(CompactionControlList({ view: emptyAuxiliarySettings() }), null, "nothing yet");
  });
  inLocale("zh-CN", () => {
    const zh = text(CompactionControlList({ view: ready({ threshold: 0.5, enabled: true }) }));
    assert.match(zh, /压缩长对话.*开/);
    assert.match(zh, /窗口的 50 %/);
  });
});

Deno.test("compaction controls: a threshold set by hand outside the offered steps is still shown", () => {
  inEnglish(() => {
    const view = CompactionControlList({ view: ready({ threshold: 0.66, enabled: true }) });
    assert.match(text(view), /66 % of the window/);
    assert.equal(propsOf(view, "select")?.value, "66");
  });
});

Deno.test("setCompaction sends only the change and shows the runtime's answer; a refusal keeps it", async () => {
  auxiliarySettingsView.value = ready({ threshold: 0.9, enabled: true });
  const fake = fakeCall({
    "settings.update": () => ({ settings: settings({ threshold: 0.6, enabled: true }) }),
  });
  assert.equal(await setCompaction({ threshold: 0.6 }, fake.call), true);
  assert.deepEqual(fake.calls, [{
    method: "settings.update",
    params: { compaction: { threshold: 0.6 } },
  }]);
  assert.deepEqual(auxiliarySettingsView.value.settings?.compaction, {
    threshold: 0.6,
    enabled: true,
  });
  assert.equal(auxiliarySettingsView.value.pending.size, 0);

  const refused = fakeCall({
    "settings.update": () => {
      throw rpcFailure("config_invalid", "config.yaml is not valid");
    },
  });
  assert.equal(await setCompaction({ enabled: false }, refused.call), false);
  assert.equal(auxiliarySettingsView.value.settings?.compaction.enabled, true, "unchanged");
  assert.equal(auxiliarySettingsView.value.error?.code, "config_invalid");
});
