import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { ConversationState } from "../state/projection.ts";
import {
  activeRun,
  conversation,
  loadOlderTurns,
  olderTurns,
  startNotice,
} from "../state/store.ts";
import { t } from "../i18n/i18n.ts";
import { feedRows, turnEntries, type TurnEntry } from "./feed/feed_rows.ts";
import { Feed, type FeedHandle } from "./feed/Feed.tsx";
import { TurnNavigator } from "./feed/TurnNavigator.tsx";
import { turnFocus } from "../state/message_search.ts";

/** The open thread's feed and its turn navigator; keyed by thread so scroll state resets. */
function ThreadFeed(props: { state: ConversationState }) {
  const { state } = props;
  const paging = olderTurns.value;
  const handle = useRef<FeedHandle | null>(null);
  const [current, setCurrent] = useState<string | null>(null);
  const rows = useMemo(() => feedRows(state.turns), [state.turns]);
  const entries = useMemo(() => turnEntries(state.turns), [state.turns]);
  const onJump = useCallback((entry: TurnEntry) => {
    setCurrent(entry.turnId);
    handle.current?.jumpTo(entry.rowKey);
  }, []);
  // A search result opened this thread: once its turn is loaded, bring its message into
  // view and flash it (the turn's first row when the message has no row of its own).
  const focus = turnFocus.value;
  useEffect(() => {
    if (focus?.threadId !== state.threadId) return;
    const entry = entries.find((candidate) => candidate.turnId === focus.turnId);
    if (!entry) return;
    turnFocus.value = null;
    setCurrent(entry.turnId);
    const row = rows.some((candidate) => candidate.key === focus.itemId)
      ? focus.itemId
      : entry.rowKey;
    handle.current?.jumpTo(row, { flash: true });
  }, [focus, entries]);
  return (
    <div class="conversation-area">
      <Feed
        rows={rows}
        turns={entries}
        hasOlder={paging.cursor !== null}
        loadingOlder={paging.loading}
        onLoadOlder={() => void loadOlderTurns()}
        onTurn={setCurrent}
        streaming={activeRun.value !== null}
        handle={handle}
      />
      <TurnNavigator entries={entries} current={current} onJump={onJump} />
    </div>
  );
}

/** Nothing to show yet: what the app is for, and what to do (seed 000 §5 empty state). */
function EmptyState(props: { hint: string }) {
  const notice = startNotice.value;
  return (
    <section class="conversation empty" aria-labelledby="empty-heading">
      {notice !== null && (
        <p class="start-notice" role="status">
          {notice}{" "}
          <button
            type="button"
            class="start-notice-dismiss"
            onClick={() => (startNotice.value = null)}
          >
            {t("delete.notice.dismiss")}
          </button>
        </p>
      )}
      <img class="app-mark" src="/icon.svg" alt="" width="56" height="56" />
      <h2 id="empty-heading">{t("empty.heading")}</h2>
      <p>{t("empty.description")}</p>
      <p class="muted">{props.hint}</p>
    </section>
  );
}

/** The open thread's turns, runs and items. */
export function Conversation() {
  const state = conversation.value;
  if (!state) return <EmptyState hint={t("conversation.none")} />;
  if (state.snapshotSeq === null) {
    return <section class="conversation empty">{t("conversation.loading")}</section>;
  }
  if (state.turns.length === 0) {
    return <EmptyState hint={t("conversation.empty")} />;
  }
  return <ThreadFeed key={state.threadId} state={state} />;
}
