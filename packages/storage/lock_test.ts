import assert from "node:assert/strict";
import { join } from "node:path";
import { HomeLockedError, StorageError } from "./errors.ts";
import { acquireRuntimeLock } from "./lock.ts";
import { spawnFixture } from "./testdata/child.ts";

const SHORT_TIMEOUT_MS = 300;

async function withTempHome(fn: (home: string) => Promise<void>): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "daedalus_lock_test_" });
  try {
    await fn(home);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

function assertHomeLocked(home: string): (error: unknown) => boolean {
  return (error) => {
    assert.ok(error instanceof HomeLockedError, `expected HomeLockedError, got ${error}`);
    assert.equal(error.code, "home_locked");
    assert.equal(error.home, home);
    assert.match(error.message, /another Daedalus runtime/i);
    assert.ok(error.message.includes(home), `message should name the home: ${error.message}`);
    return true;
  };
}

Deno.test("acquire creates the lock file and release keeps it", async () => {
  await withTempHome(async (home) => {
    const lockPath = join(home, "runtime.lock");
    const lock = await acquireRuntimeLock(lockPath);
    assert.equal(lock.path, lockPath);
    assert.equal(lock.released, false);
    assert.ok((await Deno.stat(lockPath)).isFile, "lock file should exist while held");
    await lock.release();
    assert.equal(lock.released, true);
    await lock.release(); // a second release is a no-op
    assert.ok((await Deno.stat(lockPath)).isFile, "lock file should survive release");
  });
});

Deno.test("a second handle in the same process times out with HomeLockedError", async () => {
  await withTempHome(async (home) => {
    const lockPath = join(home, "runtime.lock");
    await using _held = await acquireRuntimeLock(lockPath);
    await assert.rejects(
      acquireRuntimeLock(lockPath, { timeoutMs: SHORT_TIMEOUT_MS, pollMs: 20 }),
      assertHomeLocked(home),
    );
    // The failed attempt must not have left a lock of its own behind: still exactly one holder.
    await assert.rejects(acquireRuntimeLock(lockPath, { timeoutMs: 0 }), HomeLockedError);
  });
});

Deno.test("release then re-acquire works and keeps the same inode", async () => {
  await withTempHome(async (home) => {
    const lockPath = join(home, "runtime.lock");
    const first = await acquireRuntimeLock(lockPath);
    const inode = (await Deno.stat(lockPath)).ino;
    await first.release();
    const second = await acquireRuntimeLock(lockPath, { timeoutMs: 0 });
    assert.equal((await Deno.stat(lockPath)).ino, inode, "lock file must not be replaced");
    await second.release();
    assert.equal((await Deno.stat(lockPath)).ino, inode, "lock file must not be replaced");
  });
});

Deno.test("a waiting acquire succeeds once the holder releases", async () => {
  await withTempHome(async (home) => {
    const lockPath = join(home, "runtime.lock");
    const first = await acquireRuntimeLock(lockPath);
    const waiting = acquireRuntimeLock(lockPath, { timeoutMs: 5_000, pollMs: 10 });
    const timer = setTimeout(() => first.release(), 100);
    try {
      const second = await waiting;
      assert.equal(first.released, true);
      await second.release();
    } finally {
      clearTimeout(timer);
      await first.release();
    }
  });
});

Deno.test("an aborted wait rejects with the signal's reason and holds nothing", async () => {
  await withTempHome(async (home) => {
    const lockPath = join(home, "runtime.lock");
    const first = await acquireRuntimeLock(lockPath);
    const controller = new AbortController();
    const waiting = acquireRuntimeLock(lockPath, { timeoutMs: 5_000, signal: controller.signal });
    const reason = new Error("shutting down");
    controller.abort(reason);
    await assert.rejects(waiting, (error) => error === reason);
    await first.release();
    const again = await acquireRuntimeLock(lockPath, { timeoutMs: 0 });
    await again.release();
  });
});

Deno.test("an already aborted signal rejects before touching the file", async () => {
  await withTempHome(async (home) => {
    const lockPath = join(home, "runtime.lock");
    const signal = AbortSignal.abort(new Error("cancelled"));
    await assert.rejects(acquireRuntimeLock(lockPath, { signal }), /cancelled/);
    await assert.rejects(Deno.stat(lockPath), Deno.errors.NotFound);
  });
});

Deno.test("invalid timing options are rejected", async () => {
  await withTempHome(async (home) => {
    const lockPath = join(home, "runtime.lock");
    await assert.rejects(acquireRuntimeLock(lockPath, { timeoutMs: -1 }), RangeError);
    await assert.rejects(acquireRuntimeLock(lockPath, { pollMs: 0 }), RangeError);
    await assert.rejects(acquireRuntimeLock(lockPath, { timeoutMs: Number.NaN }), RangeError);
  });
});

Deno.test("a lock file in a missing directory fails with lock_io", async () => {
  await withTempHome(async (home) => {
    const lockPath = join(home, "missing", "runtime.lock");
    await assert.rejects(acquireRuntimeLock(lockPath, { timeoutMs: 0 }), (error) => {
      assert.ok(error instanceof StorageError);
      assert.equal(error.code, "lock_io");
      assert.ok(error.message.includes(lockPath));
      return true;
    });
  });
});

Deno.test("another process holds the lock until it is killed", async () => {
  await withTempHome(async (home) => {
    const lockPath = join(home, "runtime.lock");
    const holder = spawnFixture("lock_holder.ts", [lockPath]);
    try {
      assert.equal(await holder.nextLine(), "locked", "holder should report the lock");
      const inode = (await Deno.stat(lockPath)).ino;

      await assert.rejects(
        acquireRuntimeLock(lockPath, { timeoutMs: SHORT_TIMEOUT_MS }),
        assertHomeLocked(home),
      );

      const status = await holder.stop("SIGKILL");
      assert.equal(status.success, false);
      assert.equal(status.signal, "SIGKILL");

      const lock = await acquireRuntimeLock(lockPath, { timeoutMs: 5_000 });
      assert.equal((await Deno.stat(lockPath)).ino, inode, "lock file must not be replaced");
      await lock.release();
    } finally {
      await holder.stop("SIGKILL");
    }
  });
});

Deno.test("another process that releases cleanly hands the lock over", async () => {
  await withTempHome(async (home) => {
    const lockPath = join(home, "runtime.lock");
    const holder = spawnFixture("lock_holder.ts", [lockPath]);
    try {
      assert.equal(await holder.nextLine(), "locked");
      const waiting = acquireRuntimeLock(lockPath, { timeoutMs: 10_000 });
      await holder.process.stdin.close(); // asks the holder to release and exit
      const lock = await waiting;
      assert.equal(await holder.nextLine(), "released");
      assert.equal((await holder.process.status).success, true);
      await lock.release();
    } finally {
      await holder.stop("SIGKILL");
    }
  });
});

Deno.test("a process cannot take a lock this process holds", async () => {
  await withTempHome(async (home) => {
    const lockPath = join(home, "runtime.lock");
    await using _held = await acquireRuntimeLock(lockPath);
    const contender = spawnFixture("lock_holder.ts", [lockPath, "--timeout-ms=200"]);
    try {
      const status = await contender.process.status;
      assert.equal(status.code, 3, "contender should exit with the home_locked status");
      assert.equal(await contender.nextLine(), "home_locked");
    } finally {
      await contender.stop("SIGKILL");
    }
  });
});

Deno.test("child processes of the holder do not keep the lock after it dies", {
  ignore: Deno.build.os === "windows",
}, async () => {
  await withTempHome(async (home) => {
    const lockPath = join(home, "runtime.lock");
    const holder = spawnFixture("lock_holder.ts", [lockPath, "--spawn-child"]);
    let grandchild: number | undefined;
    try {
      const childLine = await holder.nextLine();
      grandchild = Number(childLine?.replace(/^child /, ""));
      assert.ok(Number.isInteger(grandchild), `expected "child <pid>", got ${childLine}`);
      assert.equal(await holder.nextLine(), "locked");
      await holder.stop("SIGKILL");
      // The grandchild is still running; it must not hold an inherited lock handle.
      const lock = await acquireRuntimeLock(lockPath, { timeoutMs: 5_000 });
      await lock.release();
    } finally {
      await holder.stop("SIGKILL");
      if (grandchild !== undefined && Number.isInteger(grandchild)) {
        try {
          Deno.kill(grandchild, "SIGKILL");
        } catch {
          // Already gone.
        }
      }
    }
  });
});
