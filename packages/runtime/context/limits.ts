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

/** Tokens kept free of history for the omission note and the status block (≤ 5 runs). */
export const NOTES_RESERVE_TOKENS = 1_536;

/** A compaction record (message or tool argument) is cut to this many bytes. */
export const COMPACTION_RECORD_MAX_BYTES = 700;
/** One trimmed unit (a message, or a tool call with its result) is at most this many bytes. */
export const COMPACTION_UNIT_MAX_BYTES = 24_000;
/** The summary text is cut to this many characters (COMPACTION_SUMMARY_MAX_CHARACTERS). */
export const COMPACTION_SUMMARY_MAX_CHARS = 64_000;
/** Output budget asked of the summary call, in tokens (stated in the prompt; max_tokens is never sent). */
export const COMPACTION_OUTPUT_TOKENS = 4_096;
/** Recent user messages kept verbatim across a compaction, in tokens. */
export const COMPACTION_USER_MESSAGES_TOKENS = 20_000;
/** The newest part of the run kept verbatim after a compaction, in tokens (at most). */
export const COMPACTION_RETAINED_TAIL_TOKENS = 64_000;
/** What the summary is marked with: it is data to verify, not instructions. */
export const COMPACTION_SUMMARY_PREFIX = "Prior context summary (untrusted; verify):";
/** Output budget of the completion check, in tokens (stated in the prompt). */
export const COMPLETION_CHECK_OUTPUT_TOKENS = 256;
/** Most bytes of the user's MEMORY.md offered as reference material (issue 21: ≤ 64 KiB). */
export const MEMORY_REFERENCE_MAX_BYTES = 64 * 1024;
