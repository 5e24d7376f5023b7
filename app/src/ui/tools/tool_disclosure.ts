/**
 * Which tool rows and step groups the user opened or closed. A row or group follows its
 * own default (a group opens while its step runs, waits or failed) until the user
 * toggles it; the choice outlives the row's element, which the windowed feed drops when
 * it scrolls away, and is forgotten with the page.
 *
 * @module
 */
import { signal } from "@preact/signals";

/** The user's choices by row or group key: true opened, false closed. */
export const toolDisclosure = signal<Readonly<Record<string, boolean>>>({});

/**
 * Whether a row or group is open.
 *
 * @param key the row's or group's key
 * @param byDefault what it shows when the user has not chosen
 */
export function isDisclosed(key: string, byDefault: boolean): boolean {
  return toolDisclosure.value[key] ?? byDefault;
}

/**
 * Opens a closed row or group, closes an open one.
 *
 * @param key the row's or group's key
 * @param byDefault what it shows when the user has not chosen
 */
export function toggleDisclosure(key: string, byDefault: boolean): void {
  const open = toolDisclosure.value[key] ?? byDefault;
  toolDisclosure.value = { ...toolDisclosure.value, [key]: !open };
}
