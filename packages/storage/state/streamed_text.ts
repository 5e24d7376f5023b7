/**
 * Text streamed into an Item that is still streaming. Deltas are journal rows only:
 * rewriting the item row on every delta would copy the whole answer each time
 * (quadratic in its length). The item row gets the full text when it completes;
 * until then readers add the deltas to it with this module.
 *
 * @module
 */
import type { Item } from "@daedalus/protocol";
import type { StateDatabase } from "./database.ts";
import { statement } from "../_statements.ts";

/** The text streamed so far into one item. */
export interface StreamedText {
  /** Answer text. */
  content: string;
  /** Reasoning text. */
  reasoning: string;
}

/**
 * Reads the deltas of streaming items, grouped by item.
 *
 * @param db the database
 * @param items items that are streaming
 * @returns each item's streamed text
 */
export function readStreamedText(
  db: StateDatabase,
  items: readonly Pick<Item, "id" | "runId">[],
): Map<string, StreamedText> {
  const wanted = new Set(items.map((item) => item.id));
  const texts = new Map<string, StreamedText>();
  for (const runId of new Set(items.map((item) => item.runId))) {
    const rows = statement(
      db.connection,
      `SELECT item_id, payload_json FROM events
       WHERE run_id = ? AND event_type = 'item.delta' ORDER BY seq`,
    ).all(runId);
    for (const row of rows) {
      const itemId = String(row.item_id);
      if (!wanted.has(itemId)) continue;
      const payload = JSON.parse(String(row.payload_json)) as { delta: string; field?: string };
      let text = texts.get(itemId);
      if (!text) texts.set(itemId, text = { content: "", reasoning: "" });
      if (payload.field === "reasoning") text.reasoning += payload.delta;
      else text.content += payload.delta;
    }
  }
  return texts;
}

/**
 * The item with its streamed text added (unchanged when it is not streaming).
 *
 * @param item an item as stored
 * @param streamed the text from {@linkcode readStreamedText}
 * @returns the item as a reader should see it
 */
export function withStreamedText(item: Item, streamed: StreamedText | undefined): Item {
  if (!streamed) return item;
  const data = streamed.reasoning
    ? { ...item.data, reasoning: String(item.data.reasoning ?? "") + streamed.reasoning }
    : item.data;
  return { ...item, content: item.content + streamed.content, data };
}

/**
 * Adds streamed text to every streaming item of a list (one query per run).
 *
 * @param db the database
 * @param items items as stored
 * @returns the items as readers should see them
 */
export function overlayStreamedText(db: StateDatabase, items: Item[]): Item[] {
  const streaming = items.filter((item) => item.status === "streaming");
  if (streaming.length === 0) return items;
  const texts = readStreamedText(db, streaming);
  return items.map((item) => withStreamedText(item, texts.get(item.id)));
}
