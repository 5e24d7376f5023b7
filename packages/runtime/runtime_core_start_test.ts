import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { homePaths } from "@daedalus/storage";
import { openRuntimeCore } from "./runtime_core.ts";

Deno.test("an incompatible memory.db stops start-up with its message and releases the home", async () => {
  const home = await Deno.makeTempDir({ prefix: "daedalus-start-" });
  const paths = homePaths(home);
  const foreign = new DatabaseSync(paths.memoryDb);
  foreign.exec("CREATE TABLE something_else (x)");
  foreign.close();
  await assert.rejects(
    () => openRuntimeCore({ home, workspacesRoot: `${home}/ws`, lockTimeoutMs: 0 }),
    /memory database schema is incompatible; restore a compatible backup/,
  );
  // the lock was released: a second attempt fails on memory.db again, not on the lock
  await assert.rejects(
    () => openRuntimeCore({ home, workspacesRoot: `${home}/ws`, lockTimeoutMs: 0 }),
    /memory database schema is incompatible/,
  );
  await Deno.remove(home, { recursive: true });
});
