/**
 * The file panel's pages as pure data: `file.preview` answers a revision-bound page of a
 * text file; later pages name the first page's revision, and a file that changed in
 * between answers `revision_changed` instead of a page that would not fit the ones
 * already shown. These functions merge the answers without ever mixing two revisions.
 *
 * @module
 */
import type { FilePreview } from "@daedalus/client";

/** One line of the preview with its 1-based number in the file. */
export interface PreviewLine {
  number: number;
  text: string;
}

/** What the panel shows for one path. */
export interface FilePagesState {
  path: string;
  /** The revision every shown page belongs to; null before the first page. */
  revision: string | null;
  lines: PreviewLine[];
  /** The offset (1-based line) of the next page, or null at the end of the file. */
  nextOffset: number | null;
  /** Why the last page could not be shown (a file unavailable reason), or null. */
  unavailable: string | null;
  /** Why the page ended early (the runtime's byte limit), or null. */
  truncationReason: string | null;
  encoding: string | null;
  loading: boolean;
}

/**
 * The state before the first page of a path arrives.
 *
 * @param path the file, as the tool call named it
 * @returns an empty, loading state
 */
export function emptyPages(path: string): FilePagesState {
  return {
    path,
    revision: null,
    lines: [],
    nextOffset: null,
    unavailable: null,
    truncationReason: null,
    encoding: null,
    loading: true,
  };
}

/**
 * Splits a page's content into numbered lines. A final newline ends the last line
 * rather than starting an empty one, and `\r\n` / `\r` line ends count as one.
 *
 * @param content the page's text
 * @param lineStart the number of its first line
 * @returns the numbered lines
 */
export function numberLines(content: string, lineStart: number): PreviewLine[] {
  if (content === "") return [];
  const parts = content.split(/\r\n|\r|\n/);
  if (parts.at(-1) === "") parts.pop();
  return parts.map((text, index) => ({ number: lineStart + index, text }));
}

/**
 * Merges a `file.preview` answer into the shown pages. A page of another revision
 * (the file changed) replaces nothing: the state keeps the shown lines and records
 * `revision_changed`, so the panel can offer a reload from the start.
 *
 * @param state the shown pages
 * @param page the answer
 * @returns the new state
 */
export function applyPage(state: FilePagesState, page: FilePreview): FilePagesState {
  if (page.status === "unavailable") {
    return { ...state, loading: false, unavailable: page.reason };
  }
  if (state.revision !== null && page.revision !== state.revision) {
    return { ...state, loading: false, unavailable: "revision_changed" };
  }
  const expectedStart = state.lines.length === 0 ? 1 : state.lines.at(-1)!.number + 1;
  // A repeated answer for a page already shown (a double click on "more") adds nothing.
  if (state.lines.length > 0 && page.lineStart < expectedStart) {
    return { ...state, loading: false };
  }
  return {
    ...state,
    revision: page.revision,
    lines: [...state.lines, ...numberLines(page.content, page.lineStart)],
    nextOffset: page.nextOffset,
    unavailable: null,
    truncationReason: page.truncated ? page.truncationReason : null,
    encoding: page.encoding,
    loading: false,
  };
}
