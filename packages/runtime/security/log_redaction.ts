/**
 * The runtime's logs carry no credential: while installed, `console.error`, `warn`,
 * `log`, `info` and `debug` format their arguments as Deno does and redact the line
 * before it is written. What must reach the user verbatim (the login line) goes through
 * {@linkcode LogRedaction.printVerbatim}.
 *
 * @example
 * ```ts
 * const logs = installLogRedaction(() => runtime?.core.protectedValues);
 * console.error(`failed: ${error.message}`); // redacted
 * logs.printVerbatim(`Open ${url}`);
 * logs.uninstall();
 * ```
 *
 * @module
 */

/** What log redaction needs of the protected values. */
export interface LogRedactor {
  /** Redacts a text. */
  redact(text: string): string;
}

/** Installed log redaction. */
export interface LogRedaction {
  /**
   * Writes one line to stderr without redaction: only for what the user must see as it
   * is (the login line).
   *
   * @param line the text
   */
  printVerbatim(line: string): void;
  /** Puts the original console methods back. */
  uninstall(): void;
}

const METHODS = ["error", "warn", "log", "info", "debug"] as const;

/**
 * Replaces the console's writing methods with redacting ones.
 *
 * @param redactor the current protected values (read on every line; none yet: unchanged)
 * @returns the installation
 */
export function installLogRedaction(redactor: () => LogRedactor | undefined): LogRedaction {
  const originals = new Map(METHODS.map((method) => [method, console[method]]));
  for (const method of METHODS) {
    const original = originals.get(method)!;
    console[method] = (...args: unknown[]) => {
      const values = redactor();
      if (!values) return original.apply(console, args);
      original.call(console, values.redact(formatLine(args)));
    };
  }
  return {
    printVerbatim: (line) => originals.get("error")!.call(console, line),
    uninstall: () => {
      for (const method of METHODS) console[method] = originals.get(method)!;
    },
  };
}

/** The line console.log would print for these arguments (strings as they are). */
function formatLine(args: unknown[]): string {
  return args.map((arg) =>
    typeof arg === "string" ? arg : Deno.inspect(arg, { colors: false, depth: 6 })
  ).join(" ");
}
