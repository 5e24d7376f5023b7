/**
 * English strings of Edit and resend, Regenerate and the branch switcher.
 *
 * @module
 */
export const branchEn = {
  "branch.edit": "Edit",
  "branch.editLabel": "Edit your message",
  "branch.save": "Save & send",
  "branch.cancel": "Cancel",
  "branch.filesNote": "Files are not rewound; use Undo file changes",
  "branch.regenerate": "Regenerate",
  "branch.switcher": "Versions of this message",
  "branch.previous": "Previous version",
  "branch.next": "Next version",
  "branch.position": "{index}/{count}",
} as const;
