/** Largest integer that survives a round trip through a JavaScript number (2^53 − 1). */
export const JSON_MAX_SAFE_INTEGER: number = Number.MAX_SAFE_INTEGER;

/** Deepest nesting of arrays and objects accepted in one message; deeper input is hostile or a bug. */
export const JSON_MAX_DEPTH = 64;

/** Default byte limit of one inbound message; the server may configure another. */
export const MESSAGE_DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

/** Longest generic identifier (clientRequestId, provider or model id) accepted on the wire. */
export const IDENTIFIER_MAX_CHARS = 200;

/** Most requests accepted in one JSON-RPC batch. */
export const BATCH_MAX_REQUESTS = 100;

/** Default and largest page of the thread catalog, turn history and memory lists. */
export const PAGE_DEFAULT_LIMIT = 50;
/** Largest page a client may ask for. */
export const PAGE_MAX_LIMIT = 100;

/** Default number of `thread.search` results per page: one screen of the search dialog. */
export const SEARCH_DEFAULT_LIMIT = 20;
/** Largest `thread.search` page; each result carries a snippet, so pages stay small. */
export const SEARCH_MAX_LIMIT = 50;
/** Longest `thread.search` query in characters (after trimming); a phrase, not a document. */
export const SEARCH_QUERY_MAX_CHARS = 200;
/** Longest search snippet in characters: about two lines of the dialog. */
export const SEARCH_SNIPPET_MAX_CHARS = 160;

/** Default and largest number of events one `event.replay` returns. */
export const REPLAY_DEFAULT_LIMIT = 500;
/** Largest `event.replay` page. */
export const REPLAY_MAX_LIMIT = 1000;

/** Longest thread title; titles are one line in a sidebar. */
export const THREAD_TITLE_MAX_CHARS = 200;

/** Longest error message stored on a failed Run: a provider's explanation, clipped (≈ 500 chars) plus context. */
export const RUN_ERROR_MESSAGE_MAX_CHARS = 1000;

/** Longest user message or steer text in characters (1 MiB of text is already a document). */
export const MESSAGE_CONTENT_MAX_CHARS = 1_000_000;

/** Most attachments on one message. */
export const ATTACHMENTS_MAX_COUNT = 8;
/** Largest attachment in bytes. */
export const ATTACHMENT_MAX_BYTES = 8 * 1024 * 1024;
/** Longest file name `POST /upload` echoes back: the common file-system name limit. */
export const UPLOAD_NAME_MAX_CHARS = 255;

/** Longest path accepted by file tools and RPCs. */
export const PATH_MAX_CHARS = 4096;

/** Longest memory content in characters. */
export const MEMORY_CONTENT_MAX_CHARS = 2048;
/** Longest memory preview in list pages. */
export const MEMORY_PREVIEW_MAX_CHARS = 160;

/** Largest page of process output returned by `process.read`. */
export const PROCESS_READ_MAX_BYTES = 16 * 1024;

/** Longest permission rule pattern (path glob or command prefix): a rule names a path or a command, not a program; also keeps every glob well under the matcher's compiled-size cap. */
export const PERMISSION_PATTERN_MAX_CHARS = 512;

/** Most permission rules in one list (config.yaml or a thread): each call is checked against all of them. */
export const PERMISSION_RULES_MAX_COUNT = 500;

/** Longest message the user sends with an approval decision (chars): a reason for the model, not a document. */
export const APPROVAL_MESSAGE_MAX_CHARS = 4000;
/** Longest approval summary (chars): one line a person reads on a card before answering. */
export const APPROVAL_SUMMARY_MAX_CHARS = 500;
/** Most approvals one `approval.list` returns: pending ones are few; resolved ones are history. */
export const APPROVAL_LIST_MAX_COUNT = 500;
/** Longest `ask_user` question (chars): a question a person reads on a card, not a document. */
export const QUESTION_TEXT_MAX_CHARS = 2000;
/** Most choices an `ask_user` question offers: buttons on one card (issue 21: ≤ 10). */
export const QUESTION_CHOICES_MAX_COUNT = 10;
/** Longest choice of an `ask_user` question (chars): a button's label. */
export const QUESTION_CHOICE_MAX_CHARS = 200;
/** Longest answer to an `ask_user` question (chars): what the user types back, as for a message. */
export const QUESTION_ANSWER_MAX_CHARS: number = APPROVAL_MESSAGE_MAX_CHARS;

/** Largest token budget of a Run: beyond any model's reach in one Run, a typo guard. */
export const BUDGET_TOKENS_MAX = 1_000_000_000_000;
/** Largest cost budget of a Run (US dollars). */
export const BUDGET_COST_USD_MAX = 1_000_000;
/** Most model calls a budget may allow. */
export const BUDGET_MODEL_CALLS_MAX = 1_000_000;
/** Longest running time a budget may allow (seconds): 30 days. */
export const BUDGET_WALL_TIME_SECONDS_MAX = 30 * 86_400;

/** Lowest compaction threshold (fraction of the window): below half, a Run would spend more on summaries than on work. */
export const COMPACTION_THRESHOLD_MIN = 0.5;
/** Highest compaction threshold: at 95 % the input budget itself is reached (USABLE_CONTEXT_WINDOW_PERCENT). */
export const COMPACTION_THRESHOLD_MAX = 0.95;
/** The default threshold (AUTO_COMPACT_TOKEN_LIMIT_PERCENT, 90 %). */
export const COMPACTION_THRESHOLD_DEFAULT = 0.9;

/** Longest gateway app key name (chars): a label in Settings, e.g. the app that uses it. */
export const GATEWAY_KEY_NAME_MAX_CHARS = 100;
/** Most tools a gateway key's profile may name: more than the runtime has, a typo guard. */
export const GATEWAY_KEY_TOOLS_MAX_COUNT = 200;
/** Most tools one Run may be limited to (`turn.start` `tools`): more than the runtime has. */
export const RUN_TOOLS_MAX_COUNT: number = GATEWAY_KEY_TOOLS_MAX_COUNT;
/** Most client-side tools one Run is offered (AG-UI `tools`): a front end's actions, not a catalog. */
export const CLIENT_TOOLS_MAX_COUNT = 64;
/** Longest description of a client-side tool, in characters. */
export const CLIENT_TOOL_DESCRIPTION_MAX_CHARS = 4_000;
/** Largest JSON Schema of a client-side tool's arguments, as JSON text. */
export const CLIENT_TOOL_PARAMETERS_MAX_CHARS = 32_768;
/** Most other models a gateway key lets a request choose (AG-UI `forwardedProps.model`). */
export const GATEWAY_KEY_MODELS_MAX_COUNT = 20;
/** Most browser origins one gateway key allows: a few front ends, not a wildcard by list. */
export const GATEWAY_KEY_ORIGINS_MAX_COUNT = 20;
/** Most gateway app keys (revoked ones included): one per app, kept small enough to scan. */
export const GATEWAY_KEYS_MAX_COUNT = 500;
/** Characters of an agent profile's name (one line in a list and a thread header). */
export const AGENT_NAME_MAX_CHARS = 100;
/** Characters of an agent profile's description (a sentence or two in Settings). */
export const AGENT_DESCRIPTION_MAX_CHARS = 1_000;
/** Characters of an agent profile's instructions (appended to the system prompt). */
export const AGENT_INSTRUCTIONS_MAX_CHARS = 32_768;
/** Entries of each of a profile's lists (tools, skills, MCP servers, sub-agents). */
export const AGENT_SELECTION_MAX_COUNT = 500;
/** Saved agent profiles in config.yaml (a list the Settings page shows whole). */
export const AGENT_PROFILES_MAX_COUNT = 100;
