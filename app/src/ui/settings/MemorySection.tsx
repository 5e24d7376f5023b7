import { useEffect, useRef, useState } from "preact/hooks";
import type { MemoryKind } from "@daedalus/client";
import { loadMemories, loadMoreMemories, memoryList } from "../../state/memories.ts";
import { knownWorkspaceKeys, MEMORY_KINDS, type MemoryFilter } from "../../state/memory_list.ts";
import { t } from "../../i18n/i18n.ts";
import { FailureLine } from "./FailureLine.tsx";
import { MemoryForm } from "./MemoryForm.tsx";
import { MemoryRow } from "./MemoryRow.tsx";
import { moveFocusInList } from "../list_keys.ts";
import { kindLabel, scopeLabel } from "./memory_labels.ts";
import "./data_sections.css";
import "./memory.css";

/**
 * Settings → Memory: long-term memories newest first, filtered by state, kind and
 * scope, paged with "Load more"; a form to save a new one; each row opens its full text
 * and provenance, with Correct (a new revision) and Forget (after confirmation). The
 * rows are reachable with the arrow keys, Home and End. Loads when mounted.
 */
export function MemorySection() {
  useEffect(() => {
    void loadMemories();
  }, []);
  const [creating, setCreating] = useState(false);
  const newButton = useRef<HTMLButtonElement>(null);
  const [openId, setOpenId] = useState<string | null>(null);
  const list = memoryList.value;
  const workspaceKeys = knownWorkspaceKeys(list);
  const setFilter = (change: Partial<MemoryFilter>) => {
    setOpenId(null);
    void loadMemories({ ...list.filter, ...change });
  };
  const busy = list.status === "loading" || list.status === "loadingMore";
  // The button goes away after the last page: focus moves to the first new row so it
  // is not dropped to the page.
  const loadMore = async (shown: number) => {
    await loadMoreMemories();
    requestAnimationFrame(() => {
      if (
        document.activeElement?.closest(".memory-more, .memory-list") ||
        document.activeElement === document.body
      ) {
        document.querySelectorAll<HTMLElement>(".memory-list .memory-row-toggle")[shown]?.focus();
      }
    });
  };
  return (
    <div class="data-section memory-section" aria-busy={busy}>
      <header class="section-header">
        <h3>{t("memory.title")}</h3>
        <div class="section-actions">
          <button
            ref={newButton}
            type="button"
            aria-expanded={creating}
            aria-controls="memory-new-form"
            onClick={() => setCreating(!creating)}
          >
            {t("memory.new")}
          </button>
          <button type="button" aria-disabled={busy} onClick={() => busy || void loadMemories()}>
            {t("memory.refresh")}
          </button>
        </div>
      </header>
      <p class="muted">{t("memory.intro")}</p>
      {creating && (
        <MemoryForm
          workspaceKeys={workspaceKeys}
          onDone={(memoryId) => {
            setCreating(false);
            if (memoryId) setOpenId(memoryId);
            // The form goes away: focus the saved memory's row, or New memory on Cancel.
            requestAnimationFrame(() => {
              const saved = memoryId
                ? document.querySelector<HTMLElement>(
                  ".memory-list .memory-row-toggle[aria-expanded=true]",
                )
                : null;
              (saved ?? newButton.current)?.focus();
            });
          }}
        />
      )}
      <div class="memory-filters" role="group" aria-label={t("memory.filters")}>
        <label>
          <span>{t("memory.filter.state")}</span>
          <select
            value={list.filter.state}
            onChange={(event) =>
              setFilter({ state: event.currentTarget.value as MemoryFilter["state"] })}
          >
            <option value="active">{t("memory.state.active")}</option>
            <option value="forgotten">{t("memory.state.forgotten")}</option>
            <option value="all">{t("memory.state.all")}</option>
          </select>
        </label>
        <label>
          <span>{t("memory.filter.kind")}</span>
          <select
            value={list.filter.kind}
            onChange={(event) =>
              setFilter({ kind: event.currentTarget.value as MemoryKind | "all" })}
          >
            <option value="all">{t("memory.kind.all")}</option>
            {MEMORY_KINDS.map((kind) => <option key={kind} value={kind}>{kindLabel(kind)}</option>)}
          </select>
        </label>
        <label>
          <span>{t("memory.filter.scope")}</span>
          <select
            value={list.filter.scope}
            onChange={(event) => setFilter({ scope: event.currentTarget.value })}
          >
            <option value="all">{t("memory.scope.all")}</option>
            <option value="global">{t("memory.scope.global")}</option>
            {workspaceKeys.map((key) => (
              <option key={key} value={key}>
                {scopeLabel({ type: "workspace", key })}
              </option>
            ))}
          </select>
        </label>
      </div>
      {list.error && <FailureLine failure={list.error} />}
      {list.status === "loading" && <p class="muted">{t("memory.loading")}</p>}
      {list.status === "ready" && list.items.length === 0 && <p class="muted">{t("memory.none")}
      </p>}
      {list.status !== "loading" && list.items.length > 0 && (
        <ul
          class="memory-list"
          aria-label={t("memory.listLabel")}
          onKeyDown={moveFocusInList(".memory-row-toggle")}
        >
          {list.items.map((memory) => (
            <MemoryRow
              key={memory.id}
              memory={memory}
              open={openId === memory.id}
              onToggle={() => setOpenId(openId === memory.id ? null : memory.id)}
            />
          ))}
        </ul>
      )}
      {list.hasMore && list.status !== "loading" && (
        <button
          type="button"
          class="memory-more"
          aria-disabled={list.status === "loadingMore"}
          onClick={() => list.status === "ready" && void loadMore(list.items.length)}
        >
          {list.status === "loadingMore" ? t("memory.loadingMore") : t("memory.loadMore")}
        </button>
      )}
    </div>
  );
}
