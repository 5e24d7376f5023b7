import { signal } from "@preact/signals";
import { locale } from "../../i18n/i18n.ts";
import { exactTime, relativeTime } from "./message_time.ts";

/** How often the relative times move on; one timer for every message on the page. */
const TICK_MS = 30_000;

/** The time the relative labels are counted from, refreshed by one shared timer. */
const now = signal(Date.now());
let ticking = false;

function startTicking(): void {
  if (ticking) return;
  ticking = true;
  setInterval(() => (now.value = Date.now()), TICK_MS);
}

/** When a message was written: relative ("5 minutes ago"), the exact time on hover. */
export function MessageTime(props: { at: string }) {
  startTicking();
  const label = relativeTime(props.at, now.value, locale.value);
  if (label === "") return null;
  return (
    <time class="message-time" dateTime={props.at} title={exactTime(props.at, locale.value)}>
      {label}
    </time>
  );
}
