import { useState } from "preact/hooks";
import type { Thread } from "@daedalus/client";
import {
  conversation,
  loadMoreThreads,
  moreThreadsCursor,
  openThread,
  startNewThread,
  threadList,
  threads,
} from "../../state/store.ts";
import { groupThreads } from "../../state/thread_groups.ts";
import { awaitingThreads, questioningThreads } from "../../state/approval_store.ts";
import { t } from "../../i18n/i18n.ts";
import { moveFocusInList } from "../list_keys.ts";
import { SourceBadge } from "../gateway/SourceBadge.tsx";

function ThreadButton(props: { thread: Thread; openId: string | null }) {
  const { thread, openId } = props;
  // The Run's status says it waits; a pending approval says so too after a reload.
  const waiting = thread.id in threads.value.waiting || awaitingThreads.value.has(thread.id);
  // An `ask_user` question waits the same way, but for an answer, not a permission.
  const asking = questioningThreads.value.has(thread.id);
  return (
    <li>
      <button
        type="button"
        class={thread.id === openId ? "thread current" : "thread"}
        aria-current={thread.id === openId ? "page" : undefined}
        onClick={() => void openThread(thread.id)}
      >
        <span class="title">{thread.title ?? t("thread.untitled")}</span>
        <SourceBadge thread={thread} />
        {asking
          ? (
            <span
              class="waiting-badge question-badge"
              title={t("sidebar.question")}
              aria-label={t("sidebar.question")}
            >
              {t("sidebar.questionBadge")}
            </span>
          )
          : waiting
          ? (
            <span
              class="waiting-badge"
              title={t("sidebar.waiting")}
              aria-label={t("sidebar.waiting")}
            >
              {t("sidebar.waitingBadge")}
            </span>
          )
          : thread.id in threads.value.running && (
            <span class="running" title={t("sidebar.running")} aria-label={t("sidebar.running")}>
              ●
            </span>
          )}
      </button>
    </li>
  );
}

/** Arrow keys, Home and End move focus between the thread buttons, across groups. */
const onListKey = moveFocusInList("button.thread");

/**
 * The sidebar's threads: those in their own managed folder, then one group per project
 * folder (collapsible, with "new thread in this project"), and "load more" past the
 * first page.
 */
export function ThreadList() {
  const groups = groupThreads(threadList.value);
  const openId = conversation.value?.threadId ?? null;
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) => {
    const next = new Set(hidden);
    if (!next.delete(id)) next.add(id);
    setHidden(next);
  };
  return (
    <div class="thread-groups" onKeyDown={onListKey}>
      {groups.projects.length > 0 && groups.threads.length > 0 && (
        <h2 class="group-title">{t("projects.threads")}</h2>
      )}
      <ul class="threads">
        {groups.threads.map((thread) => (
          <ThreadButton key={thread.id} thread={thread} openId={openId} />
        ))}
      </ul>
      {groups.projects.length > 0 && <h2 class="group-title">{t("projects.label")}</h2>}
      {groups.projects.map((project, index) => {
        const open = !hidden.has(project.id);
        const listId = `project-threads-${index}`;
        return (
          <section key={project.id} class="project" aria-label={project.name}>
            <div class="project-header">
              <button
                type="button"
                class="project-toggle"
                aria-expanded={open}
                aria-controls={listId}
                title={project.rootUri ?? undefined}
                aria-label={t("projects.toggle", { name: project.name })}
                onClick={() => toggle(project.id)}
              >
                <span aria-hidden="true">{open ? "▾" : "▸"}</span> {project.name}
              </button>
              {project.rootUri !== null && (
                <button
                  type="button"
                  class="project-new"
                  aria-label={t("projects.newIn", { name: project.name })}
                  title={t("projects.newIn", { name: project.name })}
                  onClick={() => startNewThread({ rootUri: project.rootUri!, name: project.name })}
                >
                  +
                </button>
              )}
            </div>
            {open && (
              <ul id={listId} class="threads">
                {project.threads.map((thread) => (
                  <ThreadButton key={thread.id} thread={thread} openId={openId} />
                ))}
              </ul>
            )}
          </section>
        );
      })}
      {moreThreadsCursor.value !== null && (
        <button
          type="button"
          class="more-threads"
          onClick={() => void loadMoreThreads()}
        >
          {t("threads.more")}
        </button>
      )}
    </div>
  );
}
