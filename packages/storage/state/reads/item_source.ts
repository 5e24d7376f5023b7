/**
 * An Item as a memory's provenance cites it: where it lives and a digest of its
 * content (so a later change of the Item can be noticed).
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { StateDatabase } from "../database.ts";
import { statement } from "../../_statements.ts";

/** A citable Item. */
export interface ItemSource {
  /** Its thread. */
  threadId: string;
  /** Its turn. */
  turnId: string;
  /** The Item. */
  itemId: string;
  /** `sha256:<hex>` of its content. */
  contentDigest: string;
}

/**
 * Looks an Item up for a memory's provenance.
 *
 * @param db the state database
 * @param itemId the Item
 * @returns its source facts, or null when there is no such Item
 */
export function readItemSource(db: StateDatabase, itemId: string): ItemSource | null {
  const row = statement(
    db.connection,
    `SELECT i.id, i.turn_id, i.content, t.thread_id FROM items i JOIN turns t ON t.id = i.turn_id
     WHERE i.id = ?`,
  ).get(itemId);
  if (!row) return null;
  return {
    threadId: String(row.thread_id),
    turnId: String(row.turn_id),
    itemId: String(row.id),
    contentDigest: "sha256:" + createHash("sha256").update(String(row.content)).digest("hex"),
  };
}
