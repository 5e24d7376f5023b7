/**
 * The service worker and its updates through workbox-window. A new version of the app
 * installs in the background and then waits: the user is asked (the update prompt)
 * instead of having the page swapped under them mid-conversation. Accepting tells the
 * waiting worker to take over, and the page reloads once it controls it.
 *
 * @module
 */
import { signal } from "@preact/signals";
import { Workbox } from "workbox-window";

/** Whether a new version is installed and waiting for the user's go-ahead. */
export const updateWaiting = signal(false);

let workbox: Workbox | null = null;

/** How often an open app asks the server for a new service worker. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * Registers `/sw.js` and listens for a waiting update. Also checks for one when the
 * app comes back to the foreground and once an hour, so a long-open window learns of it.
 */
export function registerServiceWorker(): void {
  workbox = new Workbox("/sw.js", { scope: "/" });
  workbox.addEventListener("waiting", () => (updateWaiting.value = true));
  void workbox.register();
  const check = () => void workbox?.update().catch(() => {});
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") check();
  });
  setInterval(check, UPDATE_CHECK_MS);
}

/** Activates the waiting version and reloads into it. */
export function applyUpdate(): void {
  if (!workbox) return;
  workbox.addEventListener("controlling", () => location.reload());
  workbox.messageSkipWaiting();
}

/** Hides the prompt for this page's life; the update stays waiting for the next start. */
export function dismissUpdate(): void {
  updateWaiting.value = false;
}
