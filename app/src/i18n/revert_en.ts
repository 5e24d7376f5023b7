/** English strings of "Undo file changes". */
export const revertEn = {
  "revert.open": "Undo file changes",
  "revert.title": "Undo this turn's file changes",
  "revert.titleRedo": "Redo this turn's file changes",
  "revert.close": "Close",
  "revert.loading": "Checking the files…",
  "revert.none": "This turn changed no files.",
  "revert.files": "Files",
  "revert.outcome.reverted": "will be restored",
  "revert.outcome.conflict": "changed since this turn",
  "revert.outcome.not_revertible": "cannot be restored (no copy was kept)",
  "revert.outcome.unchanged": "already as before",
  "revert.restored": "restored",
  "revert.overwritten": "your later changes were overwritten",
  "revert.conflicts":
    "{count} file(s) changed since this turn. Reverting anyway overwrites those changes.",
  "revert.confirm": "Undo file changes",
  "revert.force": "Revert anyway",
  "revert.done": "The files were restored.",
  "revert.nothing": "Nothing was changed.",
} as const;
