/**
 * Which attachment files the history still names (`data.attachments` of user and steer
 * items), so a sweep of the uploads folder never removes one a conversation shows or a
 * retry could send again.
 *
 * @module
 */
import type { StateDatabase } from "../database.ts";
import { statement } from "../../_statements.ts";

/**
 * Reads every attachment path recorded on an item.
 *
 * @param db the state database
 * @returns the paths, as recorded (absolute paths on this machine)
 */
export function readReferencedAttachmentPaths(db: StateDatabase): Set<string> {
  const rows = statement(
    db.connection,
    `SELECT json_extract(attachment.value, '$.path') AS path
     FROM items, json_each(items.data_json, '$.attachments') AS attachment
     WHERE json_type(items.data_json, '$.attachments') = 'array'`,
  ).all();
  const paths = new Set<string>();
  for (const row of rows) if (typeof row.path === "string") paths.add(row.path);
  return paths;
}
