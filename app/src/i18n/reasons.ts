/**
 * Localized explanations of reason codes. A code the tables do not know (a newer
 * runtime) gets a generic line; the raw code is always shown next to it by the caller.
 *
 * @module
 */
import { en, type MessageKey } from "./en.ts";
import { t } from "./i18n.ts";

/** The groups of reason codes, as in `packages/protocol/reason_codes.ts`. */
export type ReasonGroup = "run" | "error" | "file" | "process";

/**
 * The i18n key of a reason code, or null when no locale has copy for it.
 *
 * @param group where the code comes from
 * @param code the code
 */
export function reasonKey(group: ReasonGroup, code: string): MessageKey | null {
  const key = `reason.${group}.${code}`;
  return Object.hasOwn(en, key) ? key as MessageKey : null;
}

/**
 * Explains a reason code in the current locale.
 *
 * @param group where the code comes from
 * @param code the code
 * @returns the explanation
 */
export function explainReason(group: ReasonGroup, code: string): string {
  const key = reasonKey(group, code);
  return key ? t(key) : t("outcome.unknownReason");
}
