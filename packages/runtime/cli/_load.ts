/**
 * Loads a module when it is needed, with a specifier that is deliberately not a literal:
 * Deno builds the module graph of every literal `import("…")` at start-up, before any code
 * runs, so a command paid for the modules of every other command (measured: `daedalus
 * version` took ~0.9 s, ~0.1 s without them). A compiled executable must include the
 * modules loaded this way explicitly (`deno compile --include`).
 *
 * @module
 */

/**
 * Imports a module relative to `base`, or a bare specifier through the import map.
 *
 * @param specifier `./cli/serve.ts`, `../runtime_core.ts` or `@daedalus/storage`
 * @param base the importing module's `import.meta.url`
 * @returns the module; type it with `typeof import("…")` at the call
 */
export function load<T>(specifier: string, base: string): Promise<T> {
  return import(specifier.startsWith(".") ? new URL(specifier, base).href : specifier);
}
