import assert from "node:assert/strict";
import { join } from "node:path";
import { BACKEND_SOCKET_NAME, sweepStaleBackendFolders } from "./_stale_backends.ts";

/** A socket file nobody listens on, as a killed process leaves it (a hard link outlives the close). */
function deadSocketIn(folder: string): void {
  const live = join(folder, "live.sock");
  const listener = Deno.listen({ transport: "unix", path: live });
  Deno.linkSync(live, join(folder, BACKEND_SOCKET_NAME));
  listener.close();
}

Deno.test("stale backend folders of dead runtimes are swept; live, new and foreign ones stay", async () => {
  const root = await Deno.makeTempDir({ prefix: "stale-sweep-" });
  const folder = (name: string) => {
    const path = join(root, name);
    Deno.mkdirSync(path);
    return path;
  };
  const own = folder("daedalus-http-own");
  const dead = folder("daedalus-http-dead");
  deadSocketIn(dead);
  const live = folder("daedalus-http-live");
  const listener = Deno.listen({ transport: "unix", path: join(live, BACKEND_SOCKET_NAME) });
  folder("daedalus-http-starting");
  const other = folder("other-dead");
  deadSocketIn(other);
  const linkedDead = folder("dead-target");
  deadSocketIn(linkedDead);
  Deno.symlinkSync(linkedDead, join(root, "daedalus-http-link"));
  try {
    const removed = await sweepStaleBackendFolders(root, own);
    assert.deepEqual(removed, [dead]);
    const left = [...Deno.readDirSync(root)].map((entry) => entry.name).sort();
    assert.deepEqual(left, [
      "daedalus-http-link",
      "daedalus-http-live",
      "daedalus-http-own",
      "daedalus-http-starting",
      "dead-target",
      "other-dead",
    ]);
    assert.ok(Deno.statSync(join(linkedDead, BACKEND_SOCKET_NAME)), "a link is not followed");
  } finally {
    listener.close();
    await Deno.remove(root, { recursive: true });
  }
});
