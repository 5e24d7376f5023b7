/**
 * The string tables and the current locale. Every fixed string the app shows goes
 * through {@linkcode t}. The first run follows the browser's language; a choice made
 * later (settings, onboarding) is remembered in localStorage.
 *
 * @module
 */
import { signal } from "@preact/signals";
import { en, type MessageKey } from "./en.ts";
import { zhCN } from "./zh-CN.ts";

export type { MessageKey };

/** The locales the app ships. */
export const LOCALES = { en, "zh-CN": zhCN } as const satisfies Record<
  string,
  Record<MessageKey, string>
>;

/** A shipped locale. */
export type Locale = keyof typeof LOCALES;

const STORAGE_KEY = "daedalus.locale";

/**
 * Picks the shipped locale for a list of browser languages (`navigator.languages`).
 *
 * @param languages BCP 47 tags, most preferred first
 * @returns `zh-CN` for any Chinese tag, else `en`
 */
export function pickLocale(languages: readonly string[]): Locale {
  for (const tag of languages) {
    const lower = tag.toLowerCase();
    if (lower === "en" || lower.startsWith("en-")) return "en";
    if (lower === "zh" || lower.startsWith("zh-")) return "zh-CN";
  }
  return "en";
}

function initialLocale(): Locale {
  try {
    const saved = globalThis.localStorage?.getItem(STORAGE_KEY);
    if (saved && saved in LOCALES) return saved as Locale;
  } catch {
    // storage unavailable (private mode, tests): fall through to the browser language
  }
  const nav = (globalThis as { navigator?: { languages?: readonly string[]; language?: string } })
    .navigator;
  return pickLocale(nav?.languages ?? (nav?.language ? [nav.language] : []));
}

/** The current locale; components re-render when it changes. */
export const locale = signal<Locale>(initialLocale());

/**
 * Switches the locale and remembers the choice.
 *
 * @param next the locale
 */
export function setLocale(next: Locale): void {
  locale.value = next;
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, next);
  } catch {
    // not remembered; still applied
  }
}

/**
 * Translates a key in the current locale, filling `{name}` placeholders.
 *
 * @param key the string's key
 * @param vars placeholder values
 * @returns the text
 */
export function t(key: MessageKey, vars?: Record<string, string | number>): string {
  const text: string = LOCALES[locale.value][key] ?? en[key];
  if (!vars) return text;
  return text.replace(
    /\{(\w+)\}/g,
    (whole, name: string) => name in vars ? String(vars[name]) : whole,
  );
}
