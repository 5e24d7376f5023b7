import { useState } from "preact/hooks";
import { type MemoryKind, RpcError } from "@daedalus/client";
import { createMemory, ITEM_ID_PATTERN, newClientRequestId } from "../../state/memories.ts";
import { MEMORY_CONTENT_MAX_CHARS, MEMORY_KINDS } from "../../state/memory_list.ts";
import { type CallFailure, callFailure } from "../../state/call_failure.ts";
import { t } from "../../i18n/i18n.ts";
import { FailureLine } from "./FailureLine.tsx";
import { kindLabel, scopeLabel } from "./memory_labels.ts";

/**
 * The "New memory" form: the fields `memory.create` takes (kind, scope, content and an
 * optional source Item). The request id is kept until the runtime answers, so pressing
 * Save again after a lost answer cannot store the memory twice.
 */
export function MemoryForm(
  { workspaceKeys, onDone }: {
    workspaceKeys: readonly string[];
    onDone: (memoryId: string | null) => void;
  },
) {
  const [kind, setKind] = useState<MemoryKind>("fact");
  const [scope, setScope] = useState("global");
  const [content, setContent] = useState("");
  const [sourceItemId, setSourceItemId] = useState("");
  const [requestId, setRequestId] = useState(newClientRequestId);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<CallFailure | null>(null);
  const trimmed = content.trim();
  const source = sourceItemId.trim();
  const sourceInvalid = source !== "" && !ITEM_ID_PATTERN.test(source);
  const save = async (event: Event) => {
    event.preventDefault();
    if (trimmed === "" || sourceInvalid || saving) return;
    setSaving(true);
    try {
      const memory = await createMemory({
        kind,
        scope,
        content: trimmed,
        sourceItemId: source === "" ? null : source,
        clientRequestId: requestId,
      });
      onDone(memory.id);
    } catch (error) {
      setFailure(callFailure(error));
      // The runtime answered with a refusal, so nothing was saved under this id and the
      // edited form is a new request; after a lost answer the id stays for the retry.
      if (error instanceof RpcError) setRequestId(newClientRequestId());
      setSaving(false);
    }
  };
  return (
    <form
      id="memory-new-form"
      class="memory-form"
      aria-label={t("memory.newTitle")}
      onSubmit={(event) => void save(event)}
    >
      <div class="memory-form-fields">
        <label>
          <span>{t("memory.field.kind")}</span>
          <select
            value={kind}
            onChange={(event) => setKind(event.currentTarget.value as MemoryKind)}
          >
            {MEMORY_KINDS.map((value) => (
              <option key={value} value={value}>{kindLabel(value)}</option>
            ))}
          </select>
        </label>
        <label>
          <span>{t("memory.field.scope")}</span>
          <select value={scope} onChange={(event) => setScope(event.currentTarget.value)}>
            <option value="global">{t("memory.scope.global")}</option>
            {workspaceKeys.map((key) => (
              <option key={key} value={key}>{scopeLabel({ type: "workspace", key })}</option>
            ))}
          </select>
        </label>
      </div>
      <label class="memory-form-content">
        <span>{t("memory.field.content")}</span>
        <textarea
          rows={3}
          value={content}
          maxLength={MEMORY_CONTENT_MAX_CHARS}
          autofocus
          aria-describedby="memory-new-count"
          onInput={(event) => setContent(event.currentTarget.value)}
        />
      </label>
      <p class="muted memory-count" id="memory-new-count">
        {t("memory.count", { count: content.length, max: MEMORY_CONTENT_MAX_CHARS })}
      </p>
      {
        /* Which message a memory came from is an id the user rarely knows: tucked away,
          open by itself while what is typed there is wrong. */
      }
      <details class="memory-form-advanced" open={sourceInvalid || undefined}>
        <summary>{t("memory.field.advanced")}</summary>
        <label class="memory-form-source">
          <span>{t("memory.field.source")}</span>
          <input
            value={sourceItemId}
            spellcheck={false}
            autocomplete="off"
            placeholder="item_…"
            aria-invalid={sourceInvalid}
            aria-describedby="memory-new-source-hint"
            onInput={(event) => setSourceItemId(event.currentTarget.value)}
          />
        </label>
        <p
          class={sourceInvalid ? "section-failure" : "muted memory-count"}
          id="memory-new-source-hint"
        >
          {sourceInvalid ? t("memory.field.sourceInvalid") : t("memory.field.sourceHint")}
        </p>
      </details>
      {failure && <FailureLine failure={failure} />}
      <div class="memory-form-actions">
        <button type="submit" disabled={trimmed === "" || sourceInvalid} aria-disabled={saving}>
          {saving ? t("memory.saving") : t("memory.save")}
        </button>
        <button type="button" onClick={() => onDone(null)}>{t("memory.cancel")}</button>
      </div>
    </form>
  );
}
