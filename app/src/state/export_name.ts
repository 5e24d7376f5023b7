/**
 * The file name of a thread's export, from its title: letters and digits of any script
 * kept (a Chinese title stays Chinese), every run of other characters one `-`, so the
 * name is safe on every file system (no `/ \ : * ? " < > |`, no control or dot-only
 * names) and short enough for all of them.
 *
 * @module
 */

/** The export formats the runtime serves, with their file extensions. */
export const EXPORT_EXTENSIONS = { markdown: "md", jsonl: "jsonl" } as const;

/** One of the runtime's export formats. */
export type ThreadExportFormat = keyof typeof EXPORT_EXTENSIONS;

/** Characters of the title kept in the name: file systems allow 255 bytes, UTF-8 ≤ 4 each. */
const NAME_MAX_CHARS = 60;

/**
 * The download's file name.
 *
 * @param title the thread's title (may be empty)
 * @param threadId used when the title keeps no character
 * @param format the export format
 * @returns e.g. `Weekly-report.md`, `写一篇周报.jsonl`, `thread_0a3a….md`
 */
export function exportFileName(
  title: string,
  threadId: string,
  format: ThreadExportFormat,
): string {
  const safe = Array.from(title.normalize("NFC").replace(/[^\p{L}\p{N}\p{M}]+/gu, "-"))
    .slice(0, NAME_MAX_CHARS).join("").replace(/^-+|-+$/g, "");
  return `${safe === "" ? threadId : safe}.${EXPORT_EXTENSIONS[format]}`;
}
