import { useSignal } from "@preact/signals";
import type { DiscoveredModel } from "@daedalus/client";
import { t } from "../../i18n/i18n.ts";

/** What `provider.discover_models` found, as a checklist; models already added are marked. */
export function DiscoverPicker(
  { found, existing, onAdd, onCancel }: {
    found: DiscoveredModel[];
    existing: readonly string[];
    onAdd: (picked: DiscoveredModel[]) => void;
    onCancel: () => void;
  },
) {
  const picked = useSignal<ReadonlySet<string>>(new Set());
  const toggle = (id: string, on: boolean) => {
    const next = new Set(picked.value);
    if (on) next.add(id);
    else next.delete(id);
    picked.value = next;
  };
  if (found.length === 0) {
    return (
      <div class="discover-picker">
        <p class="muted" role="status">{t("settings.discover.none")}</p>
        <button type="button" onClick={onCancel}>{t("settings.cancel")}</button>
      </div>
    );
  }
  return (
    <fieldset class="discover-picker">
      <legend>{t("settings.discover.found", { count: found.length })}</legend>
      <ul>
        {found.map((model) => {
          const added = existing.includes(model.id);
          return (
            <li key={model.id}>
              <label>
                <input
                  type="checkbox"
                  checked={added || picked.value.has(model.id)}
                  disabled={added}
                  onChange={(event) => toggle(model.id, event.currentTarget.checked)}
                />
                <span>{model.displayName}</span> <code>{model.id}</code>
                {added && <span class="muted">· {t("settings.discover.added")}</span>}
              </label>
            </li>
          );
        })}
      </ul>
      <div class="settings-buttons">
        <button
          type="button"
          disabled={picked.value.size === 0}
          onClick={() => onAdd(found.filter((model) => picked.value.has(model.id)))}
        >
          {t("settings.discover.add", { count: picked.value.size })}
        </button>
        <button type="button" onClick={onCancel}>{t("settings.cancel")}</button>
      </div>
    </fieldset>
  );
}
