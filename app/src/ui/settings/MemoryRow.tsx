import { closeOnEscape } from "../escape_keys.ts";
import { Fragment } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { Memory, MemorySummary } from "@daedalus/client";
import {
  correctMemory,
  forgetMemory,
  loadMemoryDetail,
  memoryDetails,
  newClientRequestId,
} from "../../state/memories.ts";
import { MEMORY_CONTENT_MAX_CHARS } from "../../state/memory_list.ts";
import { type CallFailure, callFailure } from "../../state/call_failure.ts";
import { t } from "../../i18n/i18n.ts";
import { useModalDialog } from "../modal_dialog.ts";
import { FailureLine } from "./FailureLine.tsx";
import {
  formatWhen,
  kindLabel,
  scopeLabel,
  sourceLabel,
  sourceStatusLabel,
} from "./memory_labels.ts";

/**
 * One memory: a row button (the list's arrow keys move between these) that opens its
 * whole text, provenance and the Correct / Forget actions.
 */
export function MemoryRow(
  { memory, open, onToggle }: { memory: MemorySummary; open: boolean; onToggle: () => void },
) {
  const detailId = `memory-detail-${memory.id}`;
  const forgotten = memory.state === "forgotten";
  return (
    <li class={`memory-row${forgotten ? " forgotten" : ""}`}>
      <button
        type="button"
        class="memory-row-toggle"
        aria-expanded={open}
        aria-controls={open ? detailId : undefined}
        onClick={onToggle}
      >
        <span class="memory-preview">
          {forgotten ? t("memory.erased") : memory.preview}
        </span>
        <span class="memory-meta">
          <span class="memory-badge">{kindLabel(memory.kind)}</span>
          <span class="memory-badge">{scopeLabel(memory.scope)}</span>
          {forgotten && <span class="memory-badge">{t("memory.state.forgotten")}</span>}
          <span>{t("memory.revision", { revision: memory.revision })}</span>
          <span>{formatWhen(memory.updatedAt)}</span>
        </span>
      </button>
      {open && <MemoryDetail id={detailId} memoryId={memory.id} />}
    </li>
  );
}

function MemoryDetail({ id, memoryId }: { id: string; memoryId: string }) {
  const memory = memoryDetails.value.get(memoryId) ?? null;
  const [failure, setFailure] = useState<CallFailure | null>(null);
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    let current = true;
    loadMemoryDetail(memoryId).catch((error) => current && setFailure(callFailure(error)));
    return () => {
      current = false;
    };
  }, [memoryId]);
  return (
    <div id={id} class="memory-detail" role="region" aria-label={t("memory.detail")}>
      {failure && <FailureLine failure={failure} />}
      {!memory && !failure && <p class="muted">{t("memory.loading")}</p>}
      {memory && (editing
        ? <CorrectionEditor memory={memory} onClose={() => setEditing(false)} />
        : <MemoryText memory={memory} />)}
      {memory && <Provenance memory={memory} />}
      {memory?.state === "active" && !editing && (
        <div class="memory-actions">
          <button
            type="button"
            onClick={() => setEditing(true)}
          >
            {t("memory.correct")}
          </button>
          <ForgetButton memory={memory} />
        </div>
      )}
    </div>
  );
}

function MemoryText({ memory }: { memory: Memory }) {
  if (memory.content === null) return <p class="muted">{t("memory.erasedLong")}</p>;
  return <p class="memory-content">{memory.content}</p>;
}

function Provenance({ memory }: { memory: Memory }) {
  const { provenance } = memory;
  const ids: [string, string | null][] = [
    [t("memory.provenance.thread"), provenance.threadId],
    [t("memory.provenance.turn"), provenance.turnId],
    [t("memory.provenance.item"), provenance.itemId],
  ];
  return (
    <dl class="memory-provenance" aria-label={t("memory.provenance")}>
      <dt>{t("memory.provenance.source")}</dt>
      <dd>{sourceLabel(provenance.sourceKind)}</dd>
      {ids.filter(([, value]) => value !== null).map(([label, value]) => (
        <Fragment key={label}>
          <dt>{label}</dt>
          <dd>
            <code>{value}</code>
          </dd>
        </Fragment>
      ))}
      {provenance.status !== "none" && (
        <>
          <dt>{t("memory.provenance.status")}</dt>
          <dd>{sourceStatusLabel(provenance.status)}</dd>
        </>
      )}
      <dt>{t("memory.provenance.revision")}</dt>
      <dd>{memory.revision}</dd>
      <dt>{t("memory.provenance.created")}</dt>
      <dd>{formatWhen(memory.createdAt)}</dd>
      <dt>{t("memory.provenance.updated")}</dt>
      <dd>{formatWhen(memory.updatedAt)}</dd>
      {memory.forgottenAt && (
        <>
          <dt>{t("memory.provenance.forgotten")}</dt>
          <dd>{formatWhen(memory.forgottenAt)}</dd>
        </>
      )}
    </dl>
  );
}

/** Edit in place; Save sends `memory.correct` with the revision that was shown. */
function CorrectionEditor({ memory, onClose }: { memory: Memory; onClose: () => void }) {
  const [text, setText] = useState(memory.content ?? "");
  const [requestId, setRequestId] = useState(newClientRequestId);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<CallFailure | null>(null);
  const trimmed = text.trim();
  const unchanged = trimmed === (memory.content ?? "").trim();
  const save = async (event: Event) => {
    event.preventDefault();
    if (trimmed === "" || unchanged || saving) return;
    setSaving(true);
    try {
      await correctMemory(memory, trimmed, requestId);
      onClose();
    } catch (error) {
      // A conflict re-read the record: the next save is a new request against it.
      setFailure(callFailure(error));
      setRequestId(newClientRequestId());
      setSaving(false);
    }
  };
  return (
    <form class="memory-correct" onSubmit={(event) => void save(event)}>
      <textarea
        aria-label={t("memory.correctLabel")}
        rows={4}
        value={text}
        maxLength={MEMORY_CONTENT_MAX_CHARS}
        autofocus
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={closeOnEscape(onClose)}
      />
      {failure && <FailureLine failure={failure} />}
      <div class="memory-actions">
        <button type="submit" disabled={trimmed === "" || unchanged} aria-disabled={saving}>
          {saving ? t("memory.saving") : t("memory.saveCorrection")}
        </button>
        <button type="button" onClick={onClose}>{t("memory.cancel")}</button>
      </div>
    </form>
  );
}

/** Forget, confirmed in a modal `<dialog>` whose default (focused) choice is Cancel. */
function ForgetButton({ memory }: { memory: Memory }) {
  const button = useRef<HTMLButtonElement>(null);
  const [confirming, setConfirming] = useState(false);
  const [requestId] = useState(newClientRequestId);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<CallFailure | null>(null);
  const modal = useModalDialog(confirming, () => setConfirming(false));
  const close = () => {
    modal.close();
    setFailure(null);
  };
  const forget = async () => {
    setBusy(true);
    // The row may leave the list (an "Active" filter): focus then goes to a neighbour's
    // row instead of falling out of the dialog to the page.
    const row = button.current?.closest("li.memory-row");
    const neighbour = row?.nextElementSibling ?? row?.previousElementSibling ?? null;
    try {
      await forgetMemory(memory, requestId);
      close();
      requestAnimationFrame(() => {
        const stays = row?.isConnected ? row : neighbour;
        stays?.querySelector<HTMLElement>(".memory-row-toggle")?.focus();
      });
    } catch (error) {
      setFailure(callFailure(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button ref={button} type="button" class="danger" onClick={() => setConfirming(true)}>
        {t("memory.forget")}
      </button>
      {confirming && (
        <dialog
          ref={modal.ref}
          class="modal memory-forget-dialog"
          aria-labelledby="memory-forget-title"
          aria-describedby="memory-forget-body"
          onClose={modal.onClose}
        >
          <h2 id="memory-forget-title">{t("memory.forgetTitle")}</h2>
          <p id="memory-forget-body">{t("memory.forgetBody")}</p>
          <blockquote class="memory-content">{memory.content}</blockquote>
          {failure && <FailureLine failure={failure} />}
          <div class="memory-actions">
            <button
              type="button"
              class="danger"
              aria-disabled={busy}
              onClick={() => busy || void forget()}
            >
              {t("memory.forgetConfirm")}
            </button>
            <button type="button" autofocus onClick={close}>{t("memory.cancel")}</button>
          </div>
        </dialog>
      )}
    </>
  );
}
