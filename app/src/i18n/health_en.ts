/**
 * English strings of the health pieces of issue 14: Settings › Health (circuit
 * breakers), the fallback picker of a model, the feed's fallback line and the tool card
 * of a call that waits for approval.
 *
 * @module
 */
export const healthEn = {
  "settings.section.health": "Health",
  "health.intro":
    "When a tool or a provider keeps failing, its circuit breaker switches it off for a while, so runs fail fast instead of waiting on it. Breakers reset when the runtime restarts.",
  "health.loading": "Reading the breakers…",
  "health.refresh": "Refresh",
  "health.healthy": "All tools and providers are healthy.",
  "health.unhealthy": "Some tools or providers are switched off after repeated failures.",
  "health.none": "No tool or provider has been called since the runtime started.",
  "health.table": "Circuit breakers",
  "health.col.name": "Tool or provider",
  "health.col.state": "State",
  "health.col.failures": "Recent failures",
  "health.col.retry": "Next try",
  "health.kind.tool": "Tool",
  "health.kind.provider": "Provider",
  "health.kind.mcpServer": "MCP server",
  "health.state.closed": "Working",
  "health.state.open": "Switched off",
  "health.state.half_open": "Testing again",
  "health.failures": "{failures} of the last {calls} calls failed",
  "health.noFailures": "No failures",
  "health.lastFailed": "The last call failed",
  "health.consecutive": "{count} in a row",
  "health.retryIn": "Tries again in {time}",
  "health.retryNext": "The next call tests whether it works again",
  "health.retryNone": "—",
  "settings.models.fallback": "Fallback",
  "settings.models.fallbackOf": "Fallback model of {name}",
  "settings.models.fallbackNone": "None",
  "settings.models.fallbackDisabled": "{name} (disabled)",
  "settings.models.fallbackHint":
    "If this model's provider keeps failing, a run continues on the fallback.",
  "fallback.line": "{reason} Continued on {model}.",
  "fallback.lineNoReason": "The model failed; the run continued on {model}.",
  "fallback.label": "Fallback model",
  "fallback.from": "Started on",
  "fallback.to": "Continued on",
  "outcome.openHealth": "See Settings › Health",
  "status.waitingApproval": "waiting for approval",
} as const;
