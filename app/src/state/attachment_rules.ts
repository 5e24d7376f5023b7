/**
 * What the composer checks before uploading: at most {@linkcode ATTACHMENTS_MAX_COUNT}
 * files per message and {@linkcode ATTACHMENT_MAX_BYTES} per file, the same limits
 * `turn.start` enforces, so a refused file is never sent at all.
 *
 * @module
 */
import { ATTACHMENT_MAX_BYTES, ATTACHMENTS_MAX_COUNT } from "@daedalus/client";

/** Files sorted into those to upload and those refused, with why. */
export interface CheckedFiles<T> {
  /** Files within the limits, in the order given. */
  accepted: T[];
  /** Names of files larger than the per-file limit. */
  tooLarge: string[];
  /** Names of files beyond the per-message count. */
  overCount: string[];
}

/**
 * Sorts new files against the limits, given how many are already attached.
 *
 * @param attached how many files the message already has
 * @param files the new files
 * @returns accepted and refused files
 */
export function checkFiles<T extends { name: string; size: number }>(
  attached: number,
  files: readonly T[],
): CheckedFiles<T> {
  const checked: CheckedFiles<T> = { accepted: [], tooLarge: [], overCount: [] };
  for (const file of files) {
    if (file.size > ATTACHMENT_MAX_BYTES) checked.tooLarge.push(file.name);
    else if (attached + checked.accepted.length >= ATTACHMENTS_MAX_COUNT) {
      checked.overCount.push(file.name);
    } else checked.accepted.push(file);
  }
  return checked;
}

/**
 * A byte count for people: B, KB, MB with one decimal below 10.
 *
 * @param bytes the size
 * @returns e.g. `512 B`, `1.5 KB`, `8 MB`
 */
export function formatBytes(bytes: number): string {
  const units = ["B", "KB", "MB", "GB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = unit === 0 || value >= 10 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${shown} ${units[unit]}`;
}
