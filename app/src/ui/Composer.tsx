import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import {
  activeRun,
  conversation,
  models,
  pendingWorkspace,
  selectedModel,
  send,
  steer,
  stop,
  threads,
} from "../state/store.ts";
import { drafts } from "../state/drafts.ts";
import { draftVersion } from "../state/draft_mentions.ts";
import {
  attachFiles,
  attachmentInputs,
  attachmentNotice,
  attachmentsOf,
  attachmentsSettled,
  clearSent,
  removeAttachment,
} from "../state/attachments.ts";
import { currentEffort, effortParam } from "../state/reasoning_effort.ts";
import { AttachmentChips } from "./attachments/AttachmentChips.tsx";
import { EffortMenu } from "./attachments/EffortMenu.tsx";
import { openSettings } from "../state/settings_nav.ts";
import { ContextMeter } from "./ContextMeter.tsx";
import { PlanPin } from "./plan/PlanPin.tsx";
import { t } from "../i18n/i18n.ts";

/**
 * Above the composer of a project thread that has no message yet: which project folder
 * the first message will work in. Gone once the first turn exists.
 */
function ProjectCard(props: { threadId: string | null }) {
  const pending = pendingWorkspace.value;
  const workspace = props.threadId === null
    ? (pending &&
      { kind: "project", name: pending.name ?? pending.rootUri, rootUri: pending.rootUri })
    : threads.value.byId[props.threadId]?.workspace;
  const started = (conversation.value?.turns.length ?? 0) > 0;
  if (!workspace || workspace.kind !== "project" || started) return null;
  return (
    <p class="project-card" title={workspace.rootUri ?? undefined}>
      {t("projects.card", { name: workspace.name })}
      {workspace.rootUri && <code>{workspace.rootUri}</code>}
    </p>
  );
}

/**
 * Where the start screen keeps its draft and attachments until its first message makes
 * the thread (a key no thread id can take).
 */
const START_SCREEN_KEY = "start";

function hasFiles(event: DragEvent): boolean {
  return [...(event.dataTransfer?.types ?? [])].includes("Files");
}

/**
 * The message box: attachments (picker, paste, drop), model picker with its reasoning
 * effort, Send, and while a Run is active Steer (the text joins the running Run) and
 * Stop. Each thread keeps its own draft across reloads, and its attachments while the
 * tab lives. With no usable model, Send opens Settings at Providers and models and keeps
 * the draft.
 */
export function Composer() {
  const draft = useSignal("");
  const dropping = useSignal(false);
  const picker = useRef<HTMLInputElement>(null);
  const textbox = useRef<HTMLTextAreaElement>(null);
  const openThreadId = conversation.value?.threadId ?? null;
  // Drafts and attachments are kept per thread; the start screen has its own key.
  const threadId = openThreadId ?? START_SCREEN_KEY;
  const version = draftVersion.value;
  useEffect(() => {
    draft.value = drafts.get(threadId);
  }, [threadId, version]);
  useEffect(() => {
    // The start screen is for typing: keyboard focus starts in its text box.
    if (openThreadId === null) textbox.current?.focus();
  }, [openThreadId]);
  const running = activeRun.value !== null;
  const available = models.value;
  const model = available.find((m) => `${m.providerId}/${m.id}` === selectedModel.value) ?? null;
  const attached = attachmentsOf(threadId);
  const settled = attachmentsSettled(threadId);
  const notice = attachmentNotice.value[threadId] ?? null;
  const empty = draft.value.trim() === "";
  const edit = (text: string) => {
    draft.value = text;
    drafts.set(threadId, text);
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    if (empty || !settled) return;
    // Nothing to send with: set one up first. The draft stays (it is saved per thread).
    // Until the first `model.list` arrives (with the thread list) an empty list means
    // "not known yet", not "none".
    if (!running && available.length === 0) {
      if (threads.value.snapshotSeq !== null) openSettings("providers");
      return;
    }
    const text = draft.value;
    const attachments = attachmentInputs(threadId);
    const accepted = running ? await steer(text, attachments) : await send(text, {
      attachments,
      reasoningEffort: model ? effortParam(model, currentEffort(model)) : undefined,
    });
    if (!accepted) return;
    clearSent(threadId, attachments);
    // Only clear what was sent: the user may have typed more while the call was in flight.
    // (A start-screen draft was keyed "start"; its thread now exists and starts empty.)
    if (draft.value === text || threadId === START_SCREEN_KEY) {
      draft.value = "";
      drafts.clear(threadId);
    }
  };
  return (
    <form
      class={`composer${dropping.value ? " dropping" : ""}`}
      onSubmit={submit}
      onDragOver={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        dropping.value = true;
      }}
      onDragLeave={(event) => {
        const next = event.relatedTarget as Node | null;
        if (!next || !event.currentTarget.contains(next)) dropping.value = false;
      }}
      onDrop={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        dropping.value = false;
        attachFiles(threadId, [...(event.dataTransfer?.files ?? [])]);
      }}
    >
      <PlanPin />
      {dropping.value && <p class="drop-hint" aria-live="polite">{t("attachments.drop")}</p>}
      <ProjectCard threadId={openThreadId} />
      {/* One box like a chat app's: attachments, the text and its controls together. */}
      <div class="composer-box">
        <AttachmentChips items={attached} onRemove={(id) => removeAttachment(threadId, id)} />
        {notice && <p class="attachment-notice" role="alert">{notice}</p>}
        <textarea
          ref={textbox}
          aria-label={t("composer.label")}
          placeholder={t(running ? "composer.steerPlaceholder" : "composer.placeholder")}
          value={draft.value}
          onInput={(event) => edit(event.currentTarget.value)}
          onPaste={(event) => {
            const files = [...(event.clipboardData?.files ?? [])];
            if (files.length === 0) return;
            // A paste carrying files attaches them (and types nothing); text-only pastes type.
            event.preventDefault();
            attachFiles(threadId, files);
          }}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
              void submit(event);
            }
          }}
        />
        <div class="composer-actions">
          <div class="composer-tools">
            <button
              type="button"
              class="attachment-picker"
              aria-label={t("attachments.attach")}
              title={t("attachments.attach")}
              onClick={() => picker.current?.click()}
            >
              {/* A drawn paperclip: emoji fonts are missing on some systems. */}
              <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
                <path
                  d="M21.44 11.05l-9.19 9.19a6 6 0 0 1-8.49-8.49l9.19-9.19a4 4 0 0 1 5.66 5.66l-9.2 9.19a2 2 0 0 1-2.83-2.83l8.49-8.48"
                  fill="none"
                  stroke="currentColor"
                  stroke-width="2"
                  stroke-linecap="round"
                  stroke-linejoin="round"
                />
              </svg>
            </button>
            <input
              ref={picker}
              type="file"
              multiple
              hidden
              onChange={(event) => {
                attachFiles(threadId, [...(event.currentTarget.files ?? [])]);
                // The same file can be picked again after it was removed.
                event.currentTarget.value = "";
              }}
            />
            <label>
              <span class="visually-hidden">{t("composer.model")}</span>
              <select
                value={selectedModel.value ?? ""}
                disabled={available.length === 0 || running}
                onChange={(event) => (selectedModel.value = event.currentTarget.value)}
              >
                {available.length === 0 && <option value="">{t("composer.noModel")}</option>}
                {available.map((option) => (
                  <option
                    key={`${option.providerId}/${option.id}`}
                    value={`${option.providerId}/${option.id}`}
                  >
                    {option.displayName}
                  </option>
                ))}
              </select>
            </label>
            {model && <EffortMenu model={model} disabled={running} />}
          </div>
          <div class="composer-tools">
            {/* The start screen has no context to measure or compact yet. */}
            {openThreadId !== null && <ContextMeter threadId={openThreadId} running={running} />}
            {running && (
              <button type="button" onClick={() => void stop()}>{t("composer.stop")}</button>
            )}
            <button
              type="submit"
              disabled={empty || !settled ||
                (!running && available.length > 0 && !selectedModel.value)}
            >
              {t(running ? "composer.steer" : "composer.send")}
            </button>
          </div>
        </div>
      </div>
    </form>
  );
}
