/** English strings of the app's notices: the update prompt and notifications. */
export const noticesEn = {
  "announce.completed": "The assistant finished answering.",
  "update.ready": "A new version of Daedalus is ready.",
  "update.reload": "Reload to update",
  "update.later": "Later",
  "notify.ask":
    "Get a notification when a background command finishes while this window is in the background?",
  "notify.enable": "Enable notifications",
  "notify.notNow": "Not now",
  "notify.finished": "Background command finished",
  "notify.failed": "Background command failed",
  "notify.exit": "{command} — exit code {code}",
  "notify.stopped": "{command} — {state}",
  "process.background.running": "running in the background",
  "process.background.ended": "background command ended",
  "process.badge.background": "background",
  "process.badge.pty": "terminal",
  "process.badge.supervised": "supervised",
} as const;
