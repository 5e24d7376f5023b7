/**
 * Which environment variable names hold a secret. An MCP server's `env` is protected like
 * an API key where its name says it is a credential (`GITHUB_TOKEN`, `BRAVE_API_KEY`,
 * `DB_PASSWORD`…); other values (`NODE_ENV=production`, a root folder) are not, since
 * protecting them would redact ordinary words and paths from every tool result and answer.
 * Clients never see any env value either way (mcp.list masks them all).
 *
 * @module
 */

/** Name parts that mark a credential, matched as `_`-separated words or at the ends. */
const SECRET_WORDS =
  /(^|_)(KEY|APIKEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|PWD|AUTH|AUTHORIZATION|CREDENTIALS?|COOKIE|SESSION|PRIVATE|BEARER|PAT|DSN)(_|$)/;

/**
 * Whether an environment variable of this name holds a secret.
 *
 * @param name the variable's name (any case)
 * @returns true for a credential's name
 * @example
 * ```ts
 * isSecretEnvName("GITHUB_TOKEN"); // true
 * isSecretEnvName("NODE_ENV"); // false
 * ```
 */
export function isSecretEnvName(name: string): boolean {
  return SECRET_WORDS.test(name.toUpperCase().replace(/-/g, "_"));
}
