/**
 * Helpers the app's unit tests share (imported only by `*_test.ts` files, so never part
 * of the build): running a body in one locale, and reading the text a component renders.
 *
 * @module
 */
import type { VNode } from "preact";
import { type Locale, locale } from "./i18n/i18n.ts";

/**
 * Runs `body` with the UI in `name`, then puts the locale back, even when it throws.
 *
 * @param name the locale to render in
 * @param body what to run
 * @returns what `body` returned
 */
export function inLocale<T>(name: Locale, body: () => T): T {
  const before = locale.value;
  locale.value = name;
  try {
    return body();
  } finally {
    locale.value = before;
  }
}

/**
 * Runs `body` with the UI in English (see {@linkcode inLocale}).
 *
 * @param body what to run
 * @returns what `body` returned
 */
export function inEnglish<T>(body: () => T): T {
  return inLocale("en", body);
}

/**
 * The text a vnode tree renders, calling function components on the way (hooks-free
 * components only: nothing is mounted).
 *
 * @param node what a component returned
 * @returns its text, concatenated without separators
 */
export function renderedText(node: unknown): string {
  if (node === null || node === undefined || typeof node === "boolean") return "";
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(renderedText).join("");
  const vnode = node as VNode<{ children?: unknown }>;
  if (typeof vnode.type === "function") {
    return renderedText((vnode.type as (props: unknown) => unknown)(vnode.props));
  }
  return renderedText(vnode.props.children);
}
