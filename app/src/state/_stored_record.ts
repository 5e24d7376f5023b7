/**
 * The first step of reading anything the app keeps in localStorage as JSON: the stored
 * object, or null for nothing, corrupt text or a value that is not an object. Each reader
 * then checks its own fields and falls back to its defaults, so a corrupt store starts
 * over rather than failing the app.
 *
 * @module
 */

/**
 * Parses stored JSON into an object whose fields are still unchecked.
 *
 * @param text what localStorage held (null when nothing)
 * @returns the object, or null when there is none to read
 */
export function parseStoredRecord(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  return raw as Record<string, unknown>;
}
