/**
 * The `daedalus` command. Until the server lands, `serve` and `version` both
 * print the version: the entry point exists so tasks and packaging are stable.
 *
 * @module
 */
import { RUNTIME_VERSION } from "./version.ts";

if (import.meta.main) {
  const [command = "serve"] = Deno.args;
  if (command === "version" || command === "serve") {
    console.log(`daedalus ${RUNTIME_VERSION}`);
    Deno.exit(0);
  }
  console.error(`daedalus: unknown command "${command}" (try: serve, version)`);
  Deno.exit(2);
}
