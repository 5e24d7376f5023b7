/** Share of the model's window the input may use (seed: USABLE_CONTEXT_WINDOW_PERCENT). */
export const USABLE_CONTEXT_WINDOW_PERCENT = 95;

/** Share of the window at which a Run compacts its context (AUTO_COMPACT_TOKEN_LIMIT_PERCENT). */
export const AUTO_COMPACT_TOKEN_LIMIT_PERCENT = 90;

/** History is read back from the newest turn in pages of this many turns. */
export const HISTORY_PAGE_TURNS = 32;

/** Fixed estimate of one image, in tokens. */
export const IMAGE_TOKENS = 2048;

/** Per-message framing allowance, in tokens (role, separators). */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** Longest identity core, in characters. */
export const IDENTITY_CORE_MAX_CHARS = 2048;

/** How many failed or cancelled earlier Runs the status block describes at most. */
export const STATUS_BLOCK_MAX_RUNS = 5;

/** The window assumed for a model nobody configured a window for. */
export const UNKNOWN_MODEL_CONTEXT_WINDOW = 32_768;

/** Tokens kept free of history for the omission note and the status block (≤ 5 runs). */
export const NOTES_RESERVE_TOKENS = 1_536;
