/**
 * A thread's own settings (its compaction override over config.yaml's): written as a
 * `thread.settings_changed` event, projected into `threads.settings_json`, so a rebuild
 * from the journal restores them.
 *
 * @module
 */
import type { CompactionOverride, ThreadSettings } from "@daedalus/protocol";
import type { StateDatabase } from "./database.ts";
import type { Committed, StateStore } from "./store.ts";
import { StoreError } from "./errors.ts";
import { statement } from "../_statements.ts";

/** What {@linkcode updateThreadSettings} did. */
export interface ThreadSettingsChange {
  /** The settings after the change. */
  settings: ThreadSettings;
  /** False when they already were these (nothing was written). */
  changed: boolean;
}

/**
 * A thread's own settings; `{compaction: null}` when it has none.
 *
 * @param db the database
 * @param threadId the thread
 * @returns its settings
 * @throws {StoreError} `thread_not_found`
 */
export function readThreadSettings(db: StateDatabase, threadId: string): ThreadSettings {
  const row = statement(db.connection, "SELECT settings_json FROM threads WHERE id = ?").get(
    threadId,
  );
  if (!row) throw new StoreError("thread_not_found", `Thread ${threadId} does not exist`);
  if (typeof row.settings_json !== "string") return { compaction: null };
  const stored = JSON.parse(row.settings_json) as Partial<ThreadSettings>;
  return { ...stored, compaction: stored.compaction ?? null };
}

/**
 * Sets (or with null clears) a thread's compaction override. An override without any
 * field counts as none. Unchanged settings write nothing.
 *
 * @param store the state store
 * @param threadId the thread
 * @param compaction the override, or null for config.yaml's
 * @returns the settings and whether they changed
 * @throws {StoreError} `thread_not_found`
 */
export function updateThreadSettings(
  store: StateStore,
  threadId: string,
  compaction: CompactionOverride | null,
): Committed<ThreadSettingsChange> {
  return store.write(({ db, append }) => {
    const current = readThreadSettings(db, threadId);
    const next: ThreadSettings = { ...current, compaction: ownFields(compaction) };
    if (JSON.stringify(next.compaction) === JSON.stringify(current.compaction)) {
      return { settings: current, changed: false };
    }
    append({ type: "thread.settings_changed", threadId, payload: { settings: next } });
    return { settings: next, changed: true };
  });
}

/** The override's given fields in a fixed order (so equal overrides compare equal), or null. */
function ownFields(override: CompactionOverride | null): CompactionOverride | null {
  if (override === null) return null;
  const fields: CompactionOverride = {};
  if (override.threshold !== undefined) fields.threshold = override.threshold;
  if (override.enabled !== undefined) fields.enabled = override.enabled;
  return Object.keys(fields).length === 0 ? null : fields;
}

/**
 * Binds a thread to an agent profile (its settings' `agentId`). The same binding writes
 * nothing. Whether the profile exists is the caller's check (profiles live in config.yaml).
 *
 * @param store the state store
 * @param threadId the thread
 * @param agentId the profile's id
 * @returns the settings and whether they changed
 * @throws {StoreError} `thread_not_found`
 */
export function setThreadAgent(
  store: StateStore,
  threadId: string,
  agentId: string,
): Committed<ThreadSettingsChange> {
  return store.write(({ db, append }) => {
    const current = readThreadSettings(db, threadId);
    if (current.agentId === agentId) return { settings: current, changed: false };
    const next: ThreadSettings = { ...current, agentId };
    append({ type: "thread.settings_changed", threadId, payload: { settings: next } });
    return { settings: next, changed: true };
  });
}

/**
 * Moves every thread bound to a profile that is gone (`isGone`) to `toId`, one
 * `thread.settings_changed` event each.
 *
 * @param store the state store
 * @param isGone whether a thread's bound profile no longer exists
 * @param toId the profile they are bound to now
 * @returns how many threads were moved
 */
export function rebindThreadAgents(
  store: StateStore,
  isGone: (agentId: string) => boolean,
  toId: string,
): Committed<number> {
  return store.write(({ db, append }) => {
    const rows = statement(
      db.connection,
      "SELECT id, settings_json FROM threads WHERE settings_json IS NOT NULL",
    ).all();
    let moved = 0;
    for (const row of rows) {
      const settings = JSON.parse(String(row.settings_json)) as Partial<ThreadSettings>;
      if (settings.agentId === undefined || !isGone(settings.agentId)) continue;
      const next: ThreadSettings = { ...settings, compaction: settings.compaction ?? null };
      next.agentId = toId;
      append({
        type: "thread.settings_changed",
        threadId: String(row.id),
        payload: { settings: next },
      });
      moved++;
    }
    return moved;
  });
}
