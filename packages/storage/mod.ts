/**
 * @daedalus/storage — the runtime home, the state journal and its projections,
 * config.yaml, and offline maintenance, on the built-in `node:sqlite`.
 *
 * Where things live: the home layout in `home.ts`, its lock in `lock.ts`,
 * config.yaml in `config_file.ts`, state.db in `state/` (journal, projections,
 * writes, reads), maintenance in `maintenance.ts`. Imports only `@daedalus/protocol`.
 *
 * @example
 * ```ts
 * import { homePaths, resolveHome, StateStore } from "@daedalus/storage";
 *
 * const store = StateStore.open(homePaths(resolveHome()).stateDb);
 * store.close();
 * ```
 *
 * @module
 */
export * from "./errors.ts";
export * from "./limits.ts";
export * from "./home.ts";
export * from "./lock.ts";
export * from "./config_file.ts";
export * from "./config_permissions.ts";
export * from "./config_compaction.ts";
export * from "./config_mcp.ts";
export * from "./config_agents.ts";
export * from "./config_fallbacks.ts";
// Explicit exports win over `export *`: the config schemas typed as `Schema<…>`, not zod's.
export { DaedalusConfigSchema, ModelConfigSchema, ProviderConfigSchema } from "./config_public.ts";
export type {
  AuxiliaryConfig,
  BudgetsConfig,
  CompactionConfig,
  GatewayConfig,
  ModelConfigInput,
  ModelPriceConfig,
  PermissionsConfig,
  ProviderConfigInput,
  SkillsConfig,
} from "./config_schema.ts";
export * from "./maintenance.ts";
export * from "./channels/mod.ts";
export * from "./state/errors.ts";
export * from "./state/schema.ts";
export * from "./state/database.ts";
export * from "./state/backup.ts";
export * from "./state/journal.ts";
export * from "./state/journal_chain.ts";
export * from "./state/journal_verify.ts";
export * from "./state/journal_export.ts";
export * from "./state/projections.ts";
export { clearThreadIndex, isSearchable, MESSAGE_SEARCH_TABLE } from "./state/search_index.ts";
export * from "./state/store.ts";
export * from "./state/thread_writes.ts";
export * from "./state/thread_delete.ts";
export * from "./state/erased_payload.ts";
export * from "./state/thread_settings.ts";
export * from "./state/thread_compactions.ts";
export * from "./state/branch_writes.ts";
export * from "./state/turn_writes.ts";
export * from "./state/run_writes.ts";
export * from "./state/run_facts.ts";
export * from "./state/approval_writes.ts";
export * from "./state/client_tool_writes.ts";
export * from "./state/step_writes.ts";
export * from "./state/model_fallback_writes.ts";
export * from "./state/run_row.ts";
export { contentHash } from "./state/run_config_parts.ts";
export * from "./state/maintenance.ts";
export * from "./state/reads/errors.ts";
export * from "./state/reads/thread_catalog.ts";
export * from "./state/reads/message_search.ts";
export * from "./state/reads/thread_history.ts";
export * from "./state/reads/branches.ts";
export * from "./state/reads/event_replay.ts";
export * from "./state/reads/usage.ts";
export * from "./state/reads/recovery.ts";
export * from "./state/streamed_text.ts";
export * from "./state/reads/file_changes.ts";
export * from "./state/reads/turn_revert_source.ts";
export * from "./state/reads/thread_slice.ts";
export * from "./state/reads/processes.ts";
export * from "./state/reads/approvals.ts";
export * from "./state/reads/run_progress.ts";
export * from "./state/reads/run_spend.ts";
export * from "./state/resume_writes.ts";
export * from "./state/reads/attachment_refs.ts";
export * from "./memory/errors.ts";
export * from "./memory/limits.ts";
export * from "./memory/schema.ts";
export * from "./memory/database.ts";
export * from "./memory/store.ts";
export * from "./memory/list.ts";
export * from "./memory/tokenize.ts";
export * from "./memory/recall.ts";
export * from "./state/reads/item_source.ts";
export * from "./memory/cursors.ts";
export * from "./state/reads/run_items.ts";
// Types the public functions above speak in, defined in internal files.
export type { HistoryDirection } from "./state/reads/_cursor.ts";
export type { SchemaObject } from "./state/_sqlite.ts";
/** A row of memory.db's `sqlite_master` (memory.db keeps its own copy of the reader). */
export type { SchemaObject as MemorySchemaObject } from "./memory/_sqlite.ts";
