/**
 * Sizes that keep huge answers from blocking the page (issue 16: no task over 200 ms
 * while a 5 MB answer streams and renders).
 *
 * @module
 */

/**
 * Characters of an answer shown before "Show all" (64 KiB): markdown-it parses that in
 * well under 100 ms even on a slow machine, and nobody reads further without asking.
 */
export const COLLAPSE_CHARS = 65_536;

/**
 * Characters parsed and rendered per task once "Show all" is chosen (32 KiB): one piece
 * parses in about 15 ms, so a 5 MB answer appears in ~160 short tasks instead of one long one.
 */
export const PIECE_CHARS = 32_768;

/**
 * Largest code block that gets syntax highlighting (32 KiB); a bigger one stays plain
 * text, since highlight.js works on the whole block in one task.
 */
export const HIGHLIGHT_MAX_CHARS = 32_768;

/** Longest fence info string shown as a code block's label (characters). */
export const LANGUAGE_LABEL_MAX_CHARS = 24;
