/** English strings of the context meter and "Compact now". */
export const contextEn = {
  "context.percent": "{percent} % of context",
  "context.tokens": "{used} of {window} tokens in the last step",
  "context.tokensEstimated": "About {used} of {window} tokens in the last step (estimated)",
  "context.compact": "Compact now",
  "context.compacting": "Compacting…",
  "context.compactHint":
    "Summarize the conversation so far; later messages see the summary instead of the earlier turns",
  "context.compactBusy": "Wait until the run ends (or stop it) to compact",
  "context.compacted": "Compacted: about {before} tokens of history became {after}",
  "context.nothing": "Nothing to compact yet",
} as const;
