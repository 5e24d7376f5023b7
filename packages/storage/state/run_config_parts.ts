/**
 * Content-addressed RunConfig parts: the tool schema set, the identity and the skills
 * catalog are stored once in `run_config_parts` under the SHA-256 of their JSON text,
 * and each Run's `run_configs` row refers to them. A part's content is journaled once,
 * in the queued `run.state_changed` of the first Run that uses it, so a rebuild finds it
 * there and every later turn writes and publishes only the references.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import {
  type RunConfig,
  RunConfigPart,
  type RunConfigPartKind,
  type RunConfigRecord,
} from "@daedalus/protocol";
import { statement } from "../_statements.ts";
import { RUN_CONFIG_PART_CACHE_MAX_ENTRIES } from "../limits.ts";
import { deepFreeze } from "../_deep_freeze.ts";
import { JournalError } from "./errors.ts";
import { ReadError } from "./reads/errors.ts";

/** The content of each part kind, as the resolved RunConfig holds it. */
type PartContent<K extends RunConfigPartKind> = Extract<RunConfigPart, { kind: K }>["content"];

/** Which RunConfig field refers to (and, resolved, holds) each part kind. */
const PART_FIELDS = [
  { kind: "tool_schemas", ref: "toolSchemas", field: "tools" },
  { kind: "identity", ref: "identity", field: "identity" },
  { kind: "skills", ref: "skills", field: "skills" },
] as const;

/**
 * The content address of a JSON text: `sha256:<hex>` of its UTF-8 bytes, the form
 * `ContentHash` accepts.
 *
 * @param json the JSON text
 * @returns its content hash
 */
export function contentHash(json: string): string {
  return `sha256:${createHash("sha256").update(json).digest("hex")}`;
}

/**
 * Splits a resolved RunConfig into the record to store and publish (parts by reference)
 * and the parts the store does not hold yet, whose content must travel in the journal.
 * A part already stored is neither re-hashed nor re-sent: its hash is its identity.
 *
 * @param connection the state.db connection (inside the write transaction)
 * @param config the resolved config, with `parts` naming each part's hash
 * @returns the record and the new parts (hashes are verified when they are stored)
 */
export function splitRunConfig(
  connection: DatabaseSync,
  config: RunConfig,
): { record: RunConfigRecord; newParts: RunConfigPart[] } {
  const { tools: _tools, identity: _identity, skills: _skills, ...record } = config;
  const newParts: RunConfigPart[] = [];
  for (const { kind, ref, field } of PART_FIELDS) {
    const hash = config.parts[ref];
    if (isStored(connection, kind, hash)) continue;
    newParts.push({ kind, hash, content: config[field] } as RunConfigPart);
  }
  return { record, newParts };
}

/**
 * Stores journaled parts and checks that a record's references resolve: the projection
 * step of a queued `run.state_changed`, live and in rebuilds. Each new part's hash is
 * verified against its content before it is written.
 *
 * @param connection the state.db connection, inside the event's transaction
 * @param record the Run's config record
 * @param parts the parts the event carries
 * @throws {JournalError} `run_config_part_mismatch` when a part's content does not have
 *   its hash; `run_config_part_missing` when a reference is neither stored nor carried
 */
export function storeRunConfigParts(
  connection: DatabaseSync,
  record: RunConfigRecord,
  parts: readonly RunConfigPart[],
): void {
  storeJournaledParts(connection, parts);
  for (const { kind, ref } of PART_FIELDS) {
    if (isStored(connection, kind, record.parts[ref])) continue;
    throw new JournalError(
      "run_config_part_missing",
      `RunConfig part ${kind} ${record.parts[ref]} is neither stored nor in the event`,
    );
  }
}

/**
 * Stores the parts an event carries that are not stored yet, each hash verified against
 * its content: a queued `run.state_changed`'s, and the parts a `thread.deleted` carries
 * on for other threads' Runs.
 *
 * @param connection the state.db connection, inside the event's transaction
 * @param parts the parts the event carries
 * @throws {JournalError} `run_config_part_mismatch` when a part's content does not have
 *   its hash
 */
export function storeJournaledParts(
  connection: DatabaseSync,
  parts: readonly RunConfigPart[],
): void {
  for (const part of parts) {
    if (isStored(connection, part.kind, part.hash)) continue;
    const json = JSON.stringify(part.content);
    const actual = contentHash(json);
    if (actual !== part.hash) {
      throw new JournalError(
        "run_config_part_mismatch",
        `RunConfig part ${part.kind} ${part.hash} has content hashing to ${actual}`,
      );
    }
    statement(
      connection,
      "INSERT INTO run_config_parts (kind, hash, content_json) VALUES (?, ?, ?)",
    ).run(part.kind, part.hash, json);
  }
}

/**
 * Resolves a record's references to the parts' contents. Parts are immutable (their
 * hash is their identity), so each is read and checked once per connection and then
 * shared, frozen, by every Run that uses it.
 *
 * @param connection the state.db connection
 * @param record the Run's config record
 * @returns the resolved config
 * @throws {ReadError} `projection_corrupt` when a part is missing or malformed
 */
export function resolveRunConfig(connection: DatabaseSync, record: RunConfigRecord): RunConfig {
  return {
    ...record,
    tools: readPart(connection, "tool_schemas", record.parts.toolSchemas),
    identity: readPart(connection, "identity", record.parts.identity),
    skills: readPart(connection, "skills", record.parts.skills),
  };
}

const caches = new WeakMap<DatabaseSync, Map<string, unknown>>();

function readPart<K extends RunConfigPartKind>(
  connection: DatabaseSync,
  kind: K,
  hash: string,
): PartContent<K> {
  let cache = caches.get(connection);
  if (cache === undefined) caches.set(connection, cache = new Map());
  const key = `${kind} ${hash}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached as PartContent<K>;
  const row = statement(
    connection,
    "SELECT content_json FROM run_config_parts WHERE kind = ? AND hash = ?",
  ).get(kind, hash);
  if (!row) {
    throw new ReadError("projection_corrupt", `RunConfig part ${kind} ${hash} is not stored`);
  }
  const parsed = RunConfigPart.safeParse({
    kind,
    hash,
    content: JSON.parse(String(row.content_json)),
  });
  if (!parsed.success) {
    throw new ReadError(
      "projection_corrupt",
      `Stored RunConfig part ${kind} ${hash} does not match the protocol: ${parsed.error.message}`,
      undefined,
      { cause: parsed.error },
    );
  }
  const content = deepFreeze(parsed.data.content) as PartContent<K>;
  // Past the bound the oldest goes; a runtime uses a handful of parts, so this never evicts.
  if (cache.size >= RUN_CONFIG_PART_CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, content);
  return content;
}

function isStored(connection: DatabaseSync, kind: RunConfigPartKind, hash: string): boolean {
  return statement(
    connection,
    "SELECT 1 AS found FROM run_config_parts WHERE kind = ? AND hash = ?",
  ).get(kind, hash) !== undefined;
}

/**
 * Whether any stored RunConfig still refers to a part: a part no Run refers to any more
 * goes with the last thread that carried it (thread_delete.ts).
 *
 * @param connection the state.db connection
 * @param kind the part's kind
 * @param hash its content hash
 * @returns true when a `run_configs` row names it
 */
export function isPartReferenced(
  connection: DatabaseSync,
  kind: RunConfigPartKind,
  hash: string,
): boolean {
  const field = PART_FIELDS.find((f) => f.kind === kind)!;
  return statement(
    connection,
    `SELECT 1 AS found FROM run_configs WHERE json_extract(config_json, '$.parts.${field.ref}') = ?
     LIMIT 1`,
  ).get(hash) !== undefined;
}
