/**
 * Limits of the tool rows and their expanded details.
 *
 * @module
 */

/** Lines of a tool's output or arguments shown before "Show more": a glance, not a log. */
export const TOOL_PREVIEW_LINES = 12;
/** Characters shown before "Show more", for outputs of a few very long lines. */
export const TOOL_PREVIEW_CHARS = 2_000;
/**
 * Characters of an output or arguments shown at all (64 KiB, what a result holds before
 * the runtime moves it to an artifact): "Show more" never lays out more than this.
 */
export const TOOL_SHOWN_MAX_CHARS = 65_536;
