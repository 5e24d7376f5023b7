/** English strings of deleting a thread. */
export const deleteEn = {
  "delete.menu": "Delete…",
  "delete.title": "Delete “{title}”?",
  "delete.erases":
    "The conversation and its history in Daedalus are erased: every message, tool result and run of this thread, and the files Daedalus kept for it (tool output, process logs, attachments no other thread uses). This cannot be undone.",
  "delete.stays": "Files in your workspace are not touched. Memories stay.",
  "delete.memories": "See memories",
  "delete.busy": "This thread has a run in progress. Stop it first, then delete the thread.",
  "delete.close": "Close",
  "delete.cancel": "Cancel",
  "delete.confirm": "Delete",
  "delete.deleting": "Deleting…",
  "delete.deletedNotice": "This thread was deleted.",
  "delete.notice.dismiss": "Dismiss",
} as const;
