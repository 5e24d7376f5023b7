/**
 * The only link targets Markdown may produce: absolute http(s) and mailto URLs.
 * Everything else (javascript:, data:, vbscript:, relative paths, protocol-relative
 * `//host`, URLs with control characters or spaces) is refused.
 *
 * @module
 */

const ALLOWED = new Set(["http:", "https:", "mailto:"]);

/**
 * Checks a Markdown link target.
 *
 * @param raw the target as written
 * @returns the normalized URL, or null when it must not become a link
 */
export function safeHref(raw: string): string | null {
  const text = raw.trim();
  // deno-lint-ignore no-control-regex
  if (text === "" || /[\u0000-\u0020\u007f-\u009f\\]/.test(text)) return null;
  if (!/^(https?:\/\/|mailto:)/i.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  return ALLOWED.has(url.protocol) ? url.href : null;
}
