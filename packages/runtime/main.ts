/**
 * The `daedalus` command: `version`, `storage check|backup --output FILE|
 * repair-projections`, and `serve` (which, until the server lands, prints the
 * version). Machine-readable results go to stdout, everything else to stderr.
 *
 * @module
 */
import {
  resolveHome,
  storageBackup,
  storageCheck,
  storageRepairProjections,
} from "@daedalus/storage";
import { RUNTIME_VERSION } from "./version.ts";

const USAGE = "usage: daedalus [serve | version | storage check | storage backup --output FILE | " +
  "storage repair-projections] [--home DIR]";

/**
 * Runs the command line.
 *
 * @param args the arguments after the program name
 * @returns the exit code
 */
export async function main(args: string[]): Promise<number> {
  const { positional, flags } = parseArgs(args);
  const [command = "serve", sub] = positional;
  if (command === "version" || command === "serve") {
    console.log(`daedalus ${RUNTIME_VERSION}`);
    return 0;
  }
  if (command !== "storage") return usage(`unknown command "${command}"`);
  const home = flags.get("home") ?? resolveHome();
  try {
    const report = sub === "check"
      ? await storageCheck(home)
      : sub === "backup"
      ? await backup(home, flags.get("output"))
      : sub === "repair-projections"
      ? await storageRepairProjections(home)
      : null;
    if (!report) return usage(`unknown storage operation "${sub ?? ""}"`);
    console.log(JSON.stringify(report));
    return report.ok ? 0 : 1;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    console.log(JSON.stringify({
      operation: `storage.${String(sub).replace(/-/g, "_")}`,
      ok: false,
      error: {
        code: typeof code === "string" ? code : "storage_failed",
        message: String((error as Error).message),
      },
    }));
    console.error(`daedalus storage ${sub}: ${(error as Error).message}`);
    return 1;
  }
}

function backup(home: string, output: string | undefined) {
  if (!output) {
    throw Object.assign(new Error("storage backup needs --output FILE"), { code: "usage" });
  }
  return storageBackup(home, output);
}

function usage(problem: string): number {
  console.error(`daedalus: ${problem}\n${USAGE}`);
  return 2;
}

function parseArgs(args: string[]): { positional: string[]; flags: Map<string, string> } {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split("=", 2) as [string, string | undefined];
    const value = inline ?? args[++i];
    if (value === undefined) throw new Error(`--${name} needs a value`);
    flags.set(name, value);
  }
  return { positional, flags };
}

if (import.meta.main) Deno.exit(await main(Deno.args));
