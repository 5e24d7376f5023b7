/**
 * The runtime's logs carry no credential: while installed, `console.error`, `warn`,
 * `log`, `info` and `debug` format their arguments as Deno does and redact the line
 * before it is written, and so is an uncaught error or unhandled rejection, which Deno
 * would otherwise print itself before exiting. There is no way around it: the login line carries a one-time
 * code, not a protected value, so it needs none.
 *
 * @example
 * ```ts
 * const logs = installLogRedaction(() => runtime?.core.protectedValues);
 * console.error(`failed: ${error.message}`); // redacted
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
  // An error nothing caught is printed by Deno itself, past the console: it is printed
  // here instead, redacted, and the process ends as Deno would end it (exit code 1).
  const printed = originals.get("error")!;
  const crash = (event: ErrorEvent | PromiseRejectionEvent) => {
    const values = redactor();
    if (!values) return;
    event.preventDefault();
    const error = event instanceof ErrorEvent ? event.error : event.reason;
    printed.call(console, values.redact(`error: Uncaught ${formatLine([error])}`));
    Deno.exit(1);
  };
  globalThis.addEventListener("error", crash);
  globalThis.addEventListener("unhandledrejection", crash);
  return {
    uninstall: () => {
      for (const method of METHODS) console[method] = originals.get(method)!;
      globalThis.removeEventListener("error", crash);
      globalThis.removeEventListener("unhandledrejection", crash);
    },
  };
}

/** The line console.log would print for these arguments (strings as they are). */
function formatLine(args: unknown[]): string {
  return args.map((arg) =>
    typeof arg === "string" ? arg : Deno.inspect(arg, { colors: false, depth: 6 })
  ).join(" ");
}
