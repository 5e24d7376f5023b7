/**
 * `<home>/runtime.json`: where the runtime that holds the home listens, so that
 * `daedalus run`, `threads` and `show` can attach to it instead of failing on the home
 * lock. `daedalus serve` writes it (owner-only, atomically) once it listens and removes it
 * on shutdown. Only the lock holder writes it, so while the lock is held the file names
 * that holder; a file left by a crash is stale, but then the lock is free and nobody reads
 * it. It holds no secret: the token stays in `auth.json`.
 *
 * @module
 */
import { join } from "node:path";
import { writePrivateFile } from "../server/_private_file.ts";

/** The address a runtime published. */
export interface RuntimeAddress {
  /** Its base URL, e.g. `http://127.0.0.1:7420/`. */
  url: string;
  /** Its process id. */
  pid: number;
}

/**
 * The address file of a home.
 *
 * @param home the runtime home
 * @returns `<home>/runtime.json`
 */
export function runtimeAddressPath(home: string): string {
  return join(home, "runtime.json");
}

/**
 * Publishes the runtime's address.
 *
 * @param home the runtime home
 * @param address the URL and process id
 * @throws file-system errors as Deno throws them
 */
export async function writeRuntimeAddress(home: string, address: RuntimeAddress): Promise<void> {
  const content = `${JSON.stringify({ version: 1, url: address.url, pid: address.pid })}\n`;
  await writePrivateFile(runtimeAddressPath(home), content, { overwrite: true });
}

/**
 * Reads the published address.
 *
 * @param home the runtime home
 * @returns the address, or null when the file is missing or not a valid address file
 */
export async function readRuntimeAddress(home: string): Promise<RuntimeAddress | null> {
  let text: string;
  try {
    text = await Deno.readTextFile(runtimeAddressPath(home));
  } catch {
    return null;
  }
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const { version, url, pid } = parsed ?? {};
    if (version !== 1 || typeof url !== "string" || !Number.isSafeInteger(pid)) return null;
    const protocol = new URL(url).protocol;
    return protocol === "http:" || protocol === "https:" ? { url, pid: pid as number } : null;
  } catch {
    return null;
  }
}

/**
 * Removes the address file if it still names this process (a later runtime's file stays).
 *
 * @param home the runtime home
 * @param pid this process's id
 */
export async function removeRuntimeAddress(home: string, pid: number): Promise<void> {
  const current = await readRuntimeAddress(home);
  if (current?.pid !== pid) return;
  await Deno.remove(runtimeAddressPath(home)).catch(() => {});
}
