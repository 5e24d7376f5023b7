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
 * Characters parsed per task once "Show all" is chosen (8 KiB): one piece parses and
 * renders in well under 50 ms on a slow, busy machine, so a 5 MB answer appears in ~640
 * short tasks instead of one that holds the page for seconds.
 */
export const PIECE_CHARS = 8_192;

/**
 * Characters of new text parsed per task (8 KiB): a 64 KiB answer that arrives at once
 * (a reload, one big delta) is parsed in eight steps rather than in one ~100 ms task.
 */
export const PARSE_CHARS_PER_TASK = 8_192;

/**
 * Source characters of new blocks rendered per task (8 KiB): making their elements
 * costs more than parsing them, so many new blocks go on the page over a few tasks.
 */
export const RENDER_CHARS_PER_TASK = 8_192;

/**
 * Largest code block that gets syntax highlighting (16 KiB); a bigger one stays plain
 * text, since highlight.js works on the whole block in one task (and again on each delta
 * while it streams).
 */
export const HIGHLIGHT_MAX_CHARS = 16_384;

/** Longest fence info string shown as a code block's label (characters). */
export const LANGUAGE_LABEL_MAX_CHARS = 24;

/**
 * How near the feed's viewport (px, above and below) a piece of a shown-in-full huge
 * answer must be to have its elements on the page (`PieceSlot`): a screen or two ahead
 * of scrolling, few enough pieces that the page never holds all of a 5 MB answer.
 */
export const PIECE_NEAR_PX = 2_000;
