/**
 * The entry point: registers the service worker, establishes the session (trading a
 * login URL's one-time code for the cookie), then renders either the app or the "no session"
 * screen.
 *
 * @module
 */
import { render } from "preact";
import { effect } from "@preact/signals";
import { App } from "./ui/App.tsx";
import { NoSession } from "./ui/NoSession.tsx";
import { establishSession } from "./session.ts";
import { conversation, start, threads } from "./state/store.ts";
import { documentTitle } from "./state/address.ts";
import { startNotifications } from "./state/notifications.ts";
import { startApprovals } from "./state/approval_store.ts";
import { locale, t } from "./i18n/i18n.ts";
import { registerServiceWorker } from "./pwa_update.ts";
import { applyAppearance } from "./state/appearance.ts";
import "./styles.css";

// Before anything renders, so the first paint already has the chosen palette and fonts.
applyAppearance();

if ("serviceWorker" in navigator && import.meta.env.PROD) registerServiceWorker();

const root = document.getElementById("app")!;
effect(() => {
  document.documentElement.lang = locale.value;
  // The open thread's title first, so tabs, history and bookmarks say which thread it is.
  const open = conversation.value?.threadId ?? null;
  const title = open === null ? null : threads.value.byId[open]?.title ?? null;
  document.title = documentTitle(
    title,
    t("app.title"),
    open === null ? null : t("thread.untitled"),
  );
});

const status = await establishSession();
if (status === "missing" || status === "rejected") {
  render(<NoSession rejected={status === "rejected"} />, root);
} else {
  start(location.origin);
  startApprovals();
  startNotifications();
  render(<App />, root);
}
