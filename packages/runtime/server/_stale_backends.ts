/**
 * The private folders a crashed runtime leaves in the temp directory. The connection
 * guard's `Deno.serve` listens on `<tmp>/daedalus-http-<random>/http.sock`; a clean shutdown
 * removes the folder, a killed process (SIGKILL, power loss) cannot. Each start sweeps the
 * folders whose socket no process listens on any more.
 *
 * A folder is removed only when all of these hold: its name has the prefix, it is a real
 * folder (not a link) owned by the same user as the new one, and connecting to its socket is
 * refused (a socket file with no listener: its process is gone). A folder still being set
 * up has no socket yet and is kept; another user's folders are never touched.
 *
 * @module
 */
import { join } from "node:path";

/** The name prefix of a private backend folder. */
export const BACKEND_FOLDER_PREFIX = "daedalus-http-";

/** The socket's name inside its folder. */
export const BACKEND_SOCKET_NAME = "http.sock";

/**
 * Removes the stale backend folders beside `ownFolder`.
 *
 * @param tempRoot the folder the backend folders are made in
 * @param ownFolder this process's folder (never removed; its owner is the user checked)
 * @returns the folders removed
 */
export async function sweepStaleBackendFolders(
  tempRoot: string,
  ownFolder: string,
): Promise<string[]> {
  const owner = (await Deno.lstat(ownFolder)).uid;
  const removed: string[] = [];
  for await (const entry of Deno.readDir(tempRoot)) {
    if (!entry.isDirectory || !entry.name.startsWith(BACKEND_FOLDER_PREFIX)) continue;
    const folder = join(tempRoot, entry.name);
    if (folder === ownFolder) continue;
    const info = await Deno.lstat(folder).catch(() => null);
    if (info === null || !info.isDirectory || info.uid !== owner) continue;
    if (!await nobodyListens(join(folder, BACKEND_SOCKET_NAME))) continue;
    try {
      await Deno.remove(folder, { recursive: true });
      removed.push(folder);
    } catch {
      // Removed by another starting runtime meanwhile, or not ours to remove after all.
    }
  }
  return removed;
}

/** Whether `path` is a socket file that refuses connections (its listener is gone). */
async function nobodyListens(path: string): Promise<boolean> {
  try {
    const conn = await Deno.connect({ transport: "unix", path });
    conn.close();
    return false;
  } catch (error) {
    return error instanceof Deno.errors.ConnectionRefused;
  }
}
