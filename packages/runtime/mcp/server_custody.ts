/**
 * Custody of stdio MCP servers across a runtime crash. Each running server's process group
 * is recorded beside its log (`<home>/logs/mcp/<name>.pid.json`: pid and start time) and
 * the record removed when the server ends. A runtime killed with SIGKILL cannot stop its
 * servers; the next one finds their records at start and stops the groups that are still
 * the same processes (start time within {@linkcode MCP_CUSTODY_TOLERANCE_MS}; a pid that was
 * reused by something else is left alone), before it starts its own servers.
 *
 * @module
 */
import { join } from "node:path";
import { observeStartTime } from "@daedalus/tools";
import { MCP_CUSTODY_TOLERANCE_MS, MCP_STOP_GRACE_MS } from "../limits.ts";

const SUFFIX = ".pid.json";

/** A server's custody record. */
interface CustodyRecord {
  pid: number;
  startedAtMs: number;
}

/**
 * Where a server's custody record lives, beside its log.
 *
 * @param logPath the server's log file (`<home>/logs/mcp/<name>.log`)
 * @returns the record's path
 */
export function custodyPath(logPath: string): string {
  return logPath.replace(/\.log$/, "") + SUFFIX;
}

/**
 * Records a started server's process group (written whole: a temp file renamed over).
 *
 * @param path from {@linkcode custodyPath}
 * @param pid the server's pid (its process group's id)
 */
export async function recordCustody(path: string, pid: number): Promise<void> {
  const record: CustodyRecord = { pid, startedAtMs: Date.now() };
  await Deno.mkdir(join(path, ".."), { recursive: true });
  const temp = `${path}.tmp`;
  await Deno.writeTextFile(temp, JSON.stringify(record), { mode: 0o600 });
  await Deno.rename(temp, path);
}

/**
 * Drops a server's record once it ended.
 *
 * @param path from {@linkcode custodyPath}
 */
export async function releaseCustody(path: string): Promise<void> {
  await Deno.remove(path).catch(() => {});
}

/**
 * Stops the servers an earlier runtime left running (it died without stopping them).
 *
 * @param folder `<home>/logs/mcp`
 * @param observe how a pid's start time is read (`ps`; replaceable in tests)
 * @returns the pids stopped
 */
export async function sweepOrphanServers(
  folder: string,
  observe: (pid: number) => Promise<number | null> = observeStartTime,
): Promise<number[]> {
  const stopped: number[] = [];
  let entries: Deno.DirEntry[] = [];
  try {
    entries = await Array.fromAsync(Deno.readDir(folder));
  } catch {
    return stopped; // no folder: no server ever ran
  }
  for (const entry of entries) {
    if (!entry.isFile || !entry.name.endsWith(SUFFIX)) continue;
    const path = join(folder, entry.name);
    const record = await readRecord(path);
    await Deno.remove(path).catch(() => {});
    if (record === null) continue;
    const started = await observe(record.pid);
    if (started === null || Math.abs(started - record.startedAtMs) > MCP_CUSTODY_TOLERANCE_MS) {
      continue; // gone, or the pid now belongs to another process
    }
    signalGroup(record.pid, "SIGTERM");
    const deadline = Date.now() + MCP_STOP_GRACE_MS;
    while (Date.now() < deadline && await observe(record.pid) !== null) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    signalGroup(record.pid, "SIGKILL");
    stopped.push(record.pid);
  }
  return stopped;
}

async function readRecord(path: string): Promise<CustodyRecord | null> {
  try {
    const value = JSON.parse(await Deno.readTextFile(path)) as Partial<CustodyRecord>;
    const { pid, startedAtMs } = value;
    if (!Number.isInteger(pid) || (pid as number) <= 1) return null;
    if (typeof startedAtMs !== "number" || !Number.isFinite(startedAtMs)) return null;
    return { pid: pid as number, startedAtMs };
  } catch {
    return null; // unreadable or not ours: nothing to stop
  }
}

function signalGroup(pid: number, signal: Deno.Signal): void {
  try {
    Deno.kill(-pid, signal);
  } catch {
    // ESRCH: the group is gone already
  }
}
