/**
 * The maintenance commands: `daedalus token [--rotate]` and `daedalus storage
 * check|verify [--head SEQ:HASH]|backup --output FILE|repair-projections|export --thread ID
 * [--format jsonl|markdown]`. Machine-readable results go to stdout, everything else to
 * stderr.
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
import { loadOrCreateToken, rotateToken } from "../server/auth_token.ts";
import { UsageError } from "./args.ts";

/**
 * `daedalus storage OPERATION`: one JSON report on stdout (exit 0 when it is ok, else 1).
 *
 * @param sub the operation
 * @param flags `--home`, `--head`, `--output`, `--thread`, `--format`
 * @returns the exit code
 * @throws {UsageError} for an unknown operation or a missing or bad flag
 */
export async function storage(sub: string, flags: ReadonlyMap<string, string>): Promise<number> {
  const home = flags.get("home") ?? resolveHome();
  const backup = (output: string | undefined) => {
    if (!output) throw new UsageError("storage backup needs --output FILE", "storage");
    return storageBackup(home, output);
  };
  const operations = ["check", "verify", "backup", "repair-projections", "export"];
  if (!operations.includes(sub)) {
    throw new UsageError(
      `Unknown storage operation "${sub}" (${operations.join(", ")})`,
      "storage",
    );
  }
  try {
    if (sub === "export") {
      const threadId = flags.get("thread");
      const format = flags.get("format") ?? "jsonl";
      if (!threadId) throw new UsageError("storage export needs --thread ID", "storage");
      if (format !== "jsonl" && format !== "markdown") {
        throw new UsageError(`Unknown export format "${format}" (jsonl or markdown)`, "storage");
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
      if (!head) {
        throw new UsageError("--head must be SEQ:HASH (the head a verify reported)", "storage");
      }
    }
    const report = sub === "check"
      ? await storageCheck(home)
      : sub === "verify"
      ? await storageVerify(home, head)
      : sub === "backup"
      ? await backup(flags.get("output"))
      : await storageRepairProjections(home);
    console.log(JSON.stringify(report));
    return report.ok ? 0 : 1;
  } catch (error) {
    if (error instanceof UsageError) throw error;
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

/**
 * `daedalus token [--rotate]`: prints the access token; `--rotate` replaces it first.
 *
 * @param flags `--rotate`, `--home`
 * @returns the exit code
 */
export async function token(flags: ReadonlyMap<string, string>): Promise<number> {
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

/** `SEQ:HASH` as `storage verify` reports a head; undefined when malformed. */
export function parseHead(text: string): { seq: number; hash: string } | undefined {
  const match = /^([1-9][0-9]{0,15}):([0-9a-f]{64})$/.exec(text);
  if (!match) return undefined;
  const seq = Number(match[1]);
  return Number.isSafeInteger(seq) ? { seq, hash: match[2]! } : undefined;
}
