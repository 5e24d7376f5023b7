import type { Model, ModelRef } from "@daedalus/client";
import type { RunView } from "../../state/projection.ts";
import { t } from "../../i18n/i18n.ts";
import { explainReason } from "../../i18n/reasons.ts";
import { models } from "../../state/store.ts";

/**
 * How a model is named: its display name when the app knows it, always with its ref
 * (two providers can serve models of the same name).
 *
 * @param ref the model
 * @param known the models the app listed
 * @returns e.g. "Scripted vision (scripted/scripted-vision)"
 */
export function modelName(ref: ModelRef, known: readonly Model[]): string {
  const id = `${ref.providerId}/${ref.modelId}`;
  const model = known.find((m) => m.providerId === ref.providerId && m.id === ref.modelId);
  return model && model.displayName !== ref.modelId ? `${model.displayName} (${id})` : id;
}

/**
 * The line of a Run that moved to its model's fallback: why the first model failed
 * (when the live `run.model_fallback` said; a reloaded run record names only the
 * models) and which model it continued on, then both models by name.
 */
export function RunFallbackLine(props: { run: RunView; known?: readonly Model[] }) {
  const fallback = props.run.fallback;
  if (!fallback) return null;
  const known = props.known ?? models.value;
  const to = modelName(fallback.to, known);
  return (
    <div class="run-fallback" role="group" aria-label={t("fallback.label")}>
      <p>
        {fallback.reasonCode
          ? t("fallback.line", { reason: explainReason("run", fallback.reasonCode), model: to })
          : t("fallback.lineNoReason", { model: to })}
        {fallback.reasonCode && (
          <>
            {" "}
            <code class="reason-code">{fallback.reasonCode}</code>
          </>
        )}
      </p>
      <dl class="run-fallback-models">
        <div>
          <dt>{t("fallback.from")}</dt>
          <dd>
            <code>{modelName(fallback.from, known)}</code>
          </dd>
        </div>
        <div>
          <dt>{t("fallback.to")}</dt>
          <dd>
            <code>{to}</code>
          </dd>
        </div>
      </dl>
    </div>
  );
}
