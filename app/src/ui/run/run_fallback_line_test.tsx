import assert from "node:assert/strict";
import type { Model } from "@daedalus/client";
import { inEnglish, inLocale, renderedText as text } from "../../_testing.ts";
import { queuedRun, type RunView } from "../../state/projection.ts";
import { modelName, RunFallbackLine } from "./RunFallbackLine.tsx";

const KNOWN = [
  { providerId: "scripted", id: "scripted-vision", displayName: "Scripted vision" },
] as Model[];

function moved(reasonCode: RunView["reasonCode"]): RunView {
  return {
    ...queuedRun("run_1", "turn_1"),
    status: "completed",
    fallback: {
      from: { providerId: "scripted", modelId: "scripted-model" },
      to: { providerId: "scripted", modelId: "scripted-vision" },
      reasonCode,
    },
  };
}

Deno.test("fallback line: names a model by display name and ref, or by ref alone", () => {
  assert.equal(
    modelName({ providerId: "scripted", modelId: "scripted-vision" }, KNOWN),
    "Scripted vision (scripted/scripted-vision)",
  );
  assert.equal(modelName({ providerId: "other", modelId: "x" }, KNOWN), "other/x");
});

Deno.test("fallback line: why the first model failed, the model it continued on, both models", () => {
  inEnglish(() => {
    const line = text(RunFallbackLine({ run: moved("provider_server"), known: KNOWN }));
    assert.match(
      line,
      /The provider had a server error\. Continued on Scripted vision \(scripted\/scripted-vision\)\. provider_server/,
    );
    assert.match(line, /Started onscripted\/scripted-model/);
    assert.match(line, /Continued onScripted vision/);
    const reloaded = text(RunFallbackLine({ run: moved(null), known: KNOWN }));
    assert.match(reloaded, /^The model failed; the run continued on Scripted vision/);
  });
  inLocale("zh-CN", () => {
    const zh = text(RunFallbackLine({ run: moved("provider_server"), known: KNOWN }));
    assert.match(zh, /已改用 Scripted vision \(scripted\/scripted-vision\) 继续。/);
  });
});

Deno.test("fallback line: nothing for a Run that stayed on its model", () => {
  assert.equal(RunFallbackLine({ run: queuedRun("run_1", "turn_1"), known: KNOWN }), null);
});
