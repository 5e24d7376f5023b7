/**
 * English strings of the conversation feed and its turn navigator.
 *
 * @module
 */
export const feedEn = {
  "feed.label": "Messages",
  "feed.loadOlder": "Load earlier turns",
  "feed.loadingOlder": "Loading earlier turns…",
  "feed.jumpLatest": "Jump to latest",
  "feed.jumpLatestCount": "Jump to latest ({count} new)",
  "turnNav.label": "Turn navigator",
  "turnNav.toggle": "Turns ({count})",
  "turnNav.list": "Turns of this thread",
  "turnNav.keys":
    "Arrows, Home and End choose a turn, Enter jumps to it. Alt+↑ / Alt+↓ move to the previous / next turn from anywhere in the conversation.",
  "turnNav.noText": "(no message)",
  "turnNav.hide": "Hide the turn list",
  "turnNav.show": "Show the turn list",
  "drawer.open": "Open the menu",
  "drawer.close": "Close the menu",
};
