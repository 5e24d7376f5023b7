/**
 * The `daedalus` command: `serve`, `login`, `token [--rotate]`, `version`, and
 * `storage check|verify [--head SEQ:HASH]|backup --output FILE|repair-projections|export
 * --thread ID [--format jsonl|markdown]`. Machine-readable results
 * go to stdout, everything else to stderr.
 *
 * @module
 */
import {
  homePaths,
  resolveHome,
  storageBackup,
  storageCheck,
  storageExportTo,
  storageRepairProjections,
  storageVerify,
} from "@daedalus/storage";
import { RUNTIME_VERSION } from "./version.ts";
import { serve } from "./cli/serve.ts";
import { login } from "./cli/login.ts";
import { loadOrCreateToken, rotateToken } from "./server/auth_token.ts";

const USAGE = "usage: daedalus [serve [--host H] [--port P] | login [--host H] [--port P] | " +
  "token [--rotate] | version | " +
  "storage check | storage verify [--head SEQ:HASH] | storage backup --output FILE | " +
  "storage repair-projections | storage export --thread ID [--format jsonl|markdown]] [--home DIR]";

/**
 * Runs the command line.
 *
 * @param args the arguments after the program name
 * @returns the exit code
 */
export async function main(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs(args);
  } catch (error) {
    return usage((error as Error).message);
  }
  const { positional, flags } = parsed;
  const [command = "serve", sub] = positional;
  if (command === "version") {
    console.log(`daedalus ${RUNTIME_VERSION}`);
    return 0;
  }
  if (command === "serve") return await startup(() => serve(flags));
  if (command === "login") return await startup(() => login(flags, Deno.env.toObject()));
  if (command === "token") return await startup(() => token(flags));
  if (command !== "storage") return usage(`unknown command "${command}"`);
  const home = flags.get("home") ?? resolveHome();
  try {
    if (sub === "export") {
      const threadId = flags.get("thread");
      const format = flags.get("format") ?? "jsonl";
      if (!threadId) return usage("storage export needs --thread ID");
      if (format !== "jsonl" && format !== "markdown") {
        return usage(`unknown export format "${format}" (jsonl or markdown)`);
      }
      const encoder = new TextEncoder();
      await storageExportTo(home, threadId, format, async (chunk) => {
        const bytes = encoder.encode(chunk);
        for (let at = 0; at < bytes.length;) at += await Deno.stdout.write(bytes.subarray(at));
      });
      return 0;
    }
    let head;
    if (sub === "verify" && flags.has("head")) {
      head = parseHead(flags.get("head")!);
      if (!head) return usage("--head must be SEQ:HASH (the head a verify reported)");
    }
    const report = sub === "check"
      ? await storageCheck(home)
      : sub === "verify"
      ? await storageVerify(home, head)
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

/** Runs a command, turning start-up failures into one clear line and exit code 1. */
async function startup(run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    console.error(
      `daedalus: ${(error as Error).message}${typeof code === "string" ? ` (${code})` : ""}`,
    );
    return 1;
  }
}

/** `daedalus token [--rotate]`: prints the access token; `--rotate` replaces it first. */
async function token(flags: ReadonlyMap<string, string>): Promise<number> {
  const home = flags.get("home") ?? resolveHome();
  const authPath = homePaths(home).auth;
  const value = flags.has("rotate")
    ? await rotateToken(authPath)
    : await loadOrCreateToken(authPath);
  if (flags.has("rotate")) {
    console.error("Token rotated: every browser session and old token is now invalid.");
  }
  console.log(value);
  return 0;
}

function backup(home: string, output: string | undefined) {
  if (!output) {
    throw Object.assign(new Error("storage backup needs --output FILE"), { code: "usage" });
  }
  return storageBackup(home, output);
}

/** `SEQ:HASH` as `storage verify` reports a head; undefined when malformed. */
export function parseHead(text: string): { seq: number; hash: string } | undefined {
  const match = /^([1-9][0-9]{0,15}):([0-9a-f]{64})$/.exec(text);
  if (!match) return undefined;
  const seq = Number(match[1]);
  return Number.isSafeInteger(seq) ? { seq, hash: match[2]! } : undefined;
}

function usage(problem: string): number {
  console.error(`daedalus: ${problem}\n${USAGE}`);
  return 2;
}

/** Flags that take no value. */
const SWITCHES = new Set(["rotate"]);

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
    if (SWITCHES.has(name)) {
      flags.set(name, "true");
      continue;
    }
    const value = inline ?? args[++i];
    if (value === undefined) throw new Error(`--${name} needs a value`);
    flags.set(name, value);
  }
  return { positional, flags };
}

if (import.meta.main) Deno.exit(await main(Deno.args));
