/** English strings of the file panel. */
export const filesEn = {
  "file.open": "Open file",
  "file.openPath": "Open {path}",
  "file.panel": "File preview",
  "file.close": "Close",
  "file.mention": "Mention in message",
  "file.loading": "Loading…",
  "file.more": "Show more lines",
  "file.reload": "Reload from the start",
  "file.lines": "Lines {from}–{to}",
  "file.empty": "The file is empty.",
  "file.end": "End of file",
  "file.truncated": "This page ended early ({reason}).",
  "file.encoding": "Encoding {encoding}",
} as const;
