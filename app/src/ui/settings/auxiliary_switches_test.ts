import assert from "node:assert/strict";
import { inEnglish, inLocale, renderedText as text } from "../../_testing.ts";
import { AuxiliarySwitchList } from "./AuxiliarySwitches.tsx";
import { emptyAuxiliarySettings } from "../../state/auxiliary_settings.ts";

const ready = (threadTitles: boolean, forcedRefinement: boolean) => ({
  ...emptyAuxiliarySettings(),
  status: "ready" as const,
  settings: {
    threadTitles,
    memoryRefinement: true,
    forcedOff: { threadTitles: false, memoryRefinement: forcedRefinement },
    compaction: { threshold: 0.9, enabled: true },
    defaultModel: null,
  },
});

Deno.test("auxiliary switches: each shows its state in words", () => {
  inEnglish(() => {
    const shown = text(AuxiliarySwitchList({ view: ready(false, false) }));
    assert.match(shown, /Name new conversations automatically.*Off/);
    assert.match(shown, /Learn memories from conversations.*On/);
  });
});

Deno.test("auxiliary switches: a call forced off by the environment says so and shows off", () => {
  inEnglish(() => {
    const shown = text(AuxiliarySwitchList({ view: ready(true, true) }));
    assert.match(shown, /Learn memories from conversations.*DAEDALUS_MEMORY_REFINEMENT=0.*Off/);
  });
});

Deno.test("auxiliary switches: before the first answer a loading line, after a failure the reason", () => {
  inEnglish(() => {
    assert.match(text(AuxiliarySwitchList({ view: emptyAuxiliarySettings() })), /Loading…/);
    const failed = {
      ...emptyAuxiliarySettings(),
      status: "failed" as const,
      error: { code: "config_invalid", message: "config.yaml is not valid" },
    };
    const shown = text(AuxiliarySwitchList({ view: failed }));
    assert.match(shown, /config_invalid/);
    assert.doesNotMatch(shown, /Loading/);
  });
});

Deno.test("auxiliary switches: the Chinese interface has its own words", () => {
  inLocale("zh-CN", () => {
    const shown = text(AuxiliarySwitchList({ view: ready(true, false) }));
    assert.match(shown, /自动为新对话命名.*开/);
  });
});
