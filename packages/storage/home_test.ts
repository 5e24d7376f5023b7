import assert from "node:assert/strict";
import { join } from "node:path";
import { HomePathError, StorageError } from "./errors.ts";
import {
  ensureHome,
  ensureLogsDir,
  homePaths,
  managedWorkspacePath,
  resolveHome,
  resolveWorkspacesRoot,
} from "./home.ts";

const THREAD_ID = "thread_00112233445566778899aabb0123cdef";

function assertHomePathError(code: string, mentions: string): (error: unknown) => boolean {
  return (error) => {
    assert.ok(error instanceof HomePathError, `expected HomePathError, got ${error}`);
    assert.equal(error.code, code);
    assert.ok(error.message.includes(mentions), `message should mention ${mentions}`);
    return true;
  };
}

Deno.test("resolveHome uses DAEDALUS_HOME when set", () => {
  assert.equal(resolveHome({ env: { DAEDALUS_HOME: "/srv/daedalus" } }), "/srv/daedalus");
  assert.equal(
    resolveHome({ env: { DAEDALUS_HOME: "/srv/x/../daedalus/" }, homeDir: "/home/a" }),
    "/srv/daedalus",
  );
});

Deno.test("resolveHome rejects a relative DAEDALUS_HOME", () => {
  assert.throws(
    () => resolveHome({ env: { DAEDALUS_HOME: "relative/home" }, homeDir: "/home/a" }),
    assertHomePathError("home_path_relative", "DAEDALUS_HOME"),
  );
});

Deno.test("resolveHome falls back to ~/.daedalus", () => {
  assert.equal(resolveHome({ env: {}, homeDir: "/home/a" }), "/home/a/.daedalus");
  assert.equal(resolveHome({ env: { HOME: "/home/b" } }), "/home/b/.daedalus");
  assert.equal(resolveHome({ env: { HOME: "/home/b", DAEDALUS_HOME: "" } }), "/home/b/.daedalus");
});

Deno.test("resolveHome uses USERPROFILE on Windows", () => {
  const env = { USERPROFILE: "C:\\Users\\ada", HOME: "/ignored" };
  assert.equal(resolveHome({ env, os: "windows" }), "C:\\Users\\ada\\.daedalus");
  assert.equal(
    resolveWorkspacesRoot({ env, os: "windows" }),
    "C:\\Users\\ada\\Documents\\Daedalus",
  );
  assert.equal(
    resolveHome({ env: { DAEDALUS_HOME: "D:\\data\\daedalus" }, os: "windows" }),
    "D:\\data\\daedalus",
  );
  assert.throws(
    () => resolveHome({ env: { DAEDALUS_HOME: "data\\daedalus" }, os: "windows" }),
    assertHomePathError("home_path_relative", "DAEDALUS_HOME"),
  );
});

Deno.test("resolveHome fails clearly when the user's home is unknown", () => {
  assert.throws(() => resolveHome({ env: {} }), assertHomePathError("home_dir_unknown", "HOME"));
  assert.throws(
    () => resolveHome({ env: { HOME: "/home/a" }, os: "windows" }),
    assertHomePathError("home_dir_unknown", "USERPROFILE"),
  );
  assert.throws(
    () => resolveHome({ env: { HOME: "not/absolute" } }),
    assertHomePathError("home_path_relative", "HOME"),
  );
});

Deno.test("resolveHome reads the process environment by default", () => {
  const previous = Deno.env.get("DAEDALUS_HOME");
  Deno.env.set("DAEDALUS_HOME", "/tmp/daedalus-from-env");
  try {
    assert.equal(resolveHome(), "/tmp/daedalus-from-env");
  } finally {
    if (previous === undefined) Deno.env.delete("DAEDALUS_HOME");
    else Deno.env.set("DAEDALUS_HOME", previous);
  }
});

Deno.test("resolveWorkspacesRoot uses the override or ~/Documents/Daedalus", () => {
  assert.equal(
    resolveWorkspacesRoot({ env: { DAEDALUS_WORKSPACES_ROOT: "/data/ws" }, homeDir: "/home/a" }),
    "/data/ws",
  );
  assert.equal(
    resolveWorkspacesRoot({ env: {}, homeDir: "/home/a" }),
    "/home/a/Documents/Daedalus",
  );
  assert.throws(
    () => resolveWorkspacesRoot({ env: { DAEDALUS_WORKSPACES_ROOT: "ws" }, homeDir: "/home/a" }),
    assertHomePathError("home_path_relative", "DAEDALUS_WORKSPACES_ROOT"),
  );
});

Deno.test("homePaths lists every file and directory of the home", () => {
  assert.deepEqual(homePaths("/h"), {
    home: "/h",
    config: "/h/config.yaml",
    stateDb: "/h/state.db",
    memoryDb: "/h/memory.db",
    lock: "/h/runtime.lock",
    auth: "/h/auth.json",
    sessions: "/h/sessions.json",
    backups: "/h/backups",
    artifacts: "/h/artifacts",
    processes: "/h/processes",
    skills: "/h/skills",
    attachments: "/h/attachments",
    logs: "/h/logs",
    deletions: "/h/deletions",
  });
  assert.throws(() => homePaths("relative"), HomePathError);
});

Deno.test("ensureHome creates an owner-only home and its directories, not logs", async () => {
  const parent = await Deno.makeTempDir({ prefix: "daedalus_home_test_" });
  try {
    const paths = homePaths(join(parent, "nested", ".daedalus"));
    await ensureHome(paths);
    const home = await Deno.stat(paths.home);
    assert.ok(home.isDirectory);
    if (Deno.build.os !== "windows") assert.equal((home.mode ?? 0) & 0o777, 0o700);
    for (const dir of [paths.backups, paths.artifacts, paths.processes, paths.skills]) {
      assert.ok((await Deno.stat(dir)).isDirectory, `${dir} should exist`);
    }
    await assert.rejects(Deno.stat(paths.logs), Deno.errors.NotFound, "logs are on demand");
    await assert.rejects(Deno.stat(paths.config), Deno.errors.NotFound);

    await Deno.writeTextFile(join(paths.skills, "keep.txt"), "kept");
    await ensureHome(paths); // idempotent, keeps contents
    assert.equal(await Deno.readTextFile(join(paths.skills, "keep.txt")), "kept");

    assert.equal(await ensureLogsDir(paths), paths.logs);
    assert.ok((await Deno.stat(paths.logs)).isDirectory);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("ensureHome leaves an existing home's mode alone", async () => {
  const home = await Deno.makeTempDir({ prefix: "daedalus_home_test_" });
  try {
    if (Deno.build.os !== "windows") await Deno.chmod(home, 0o750);
    await ensureHome(homePaths(home));
    if (Deno.build.os !== "windows") {
      assert.equal(((await Deno.stat(home)).mode ?? 0) & 0o777, 0o750);
    }
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("ensureHome fails with home_io when the home is a file", async () => {
  const parent = await Deno.makeTempDir({ prefix: "daedalus_home_test_" });
  try {
    const home = join(parent, "home");
    await Deno.writeTextFile(home, "not a directory");
    await assert.rejects(ensureHome(homePaths(home)), (error) => {
      assert.ok(error instanceof StorageError);
      assert.equal(error.code, "home_io");
      assert.ok(error.message.includes(home));
      return true;
    });
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("managedWorkspacePath buckets by local date and time", () => {
  const createdAt = new Date(2026, 9, 1, 10, 0, 0); // local time
  assert.equal(
    managedWorkspacePath("/home/a/Documents/Daedalus", createdAt, THREAD_ID),
    "/home/a/Documents/Daedalus/2026-10-01/100000-0123cdef",
  );
  assert.equal(
    managedWorkspacePath("/ws", new Date(2027, 0, 9, 7, 5, 3, 999), THREAD_ID),
    "/ws/2027-01-09/070503-0123cdef",
  );
  assert.equal(
    managedWorkspacePath("/ws", new Date(2026, 11, 31, 23, 59, 59), THREAD_ID),
    "/ws/2026-12-31/235959-0123cdef",
  );
});

Deno.test("managedWorkspacePath rejects bad thread ids and dates", () => {
  const createdAt = new Date(2026, 9, 1);
  assert.throws(() => managedWorkspacePath("/ws", createdAt, "thread_0123"), TypeError);
  assert.throws(
    () => managedWorkspacePath("/ws", createdAt, "thread_00112233445566778899AABB0123CDEF"),
    TypeError,
  );
  assert.throws(() => managedWorkspacePath("/ws", createdAt, "../../etc"), TypeError);
  assert.throws(() => managedWorkspacePath("/ws", new Date(Number.NaN), THREAD_ID), RangeError);
});
