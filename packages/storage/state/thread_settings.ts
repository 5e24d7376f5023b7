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
