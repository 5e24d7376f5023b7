import assert from "node:assert/strict";
import {
  AuthFileError,
  loadOrCreateToken,
  readAuthFile,
  rotateToken,
  TokenStore,
} from "./auth_token.ts";

async function rejection(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

async function withHome(run: (authPath: string) => Promise<void>): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "daedalus_auth_test_" });
  try {
    await run(`${home}/auth.json`);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("loadOrCreateToken writes a 256-bit token to a 0600 file and then keeps it", async () => {
  await withHome(async (authPath) => {
    const token = await loadOrCreateToken(authPath);
    assert.ok(/^[0-9a-f]{64}$/.test(token), "the token is 64 lowercase hex digits");
    const file = JSON.parse(await Deno.readTextFile(authPath));
    assert.deepEqual(Object.keys(file).sort(), ["createdAt", "token", "version"]);
    assert.deepEqual(file.version, 1);
    assert.deepEqual(file.token, token);
    if (Deno.build.os !== "windows") {
      assert.deepEqual((await Deno.stat(authPath)).mode! & 0o777, 0o600, "auth.json is mode 0600");
    }
    assert.deepEqual(await loadOrCreateToken(authPath), token, "a second load keeps the token");
    const leftovers = [...Deno.readDirSync(authPath.replace(/auth\.json$/, ""))];
    assert.deepEqual(leftovers.map((entry) => entry.name), ["auth.json"], "no temp file is left");
  });
});

Deno.test("concurrent first loads agree on one token", async () => {
  await withHome(async (authPath) => {
    const tokens = await Promise.all(Array.from({ length: 8 }, () => loadOrCreateToken(authPath)));
    assert.deepEqual(new Set(tokens).size, 1);
    assert.deepEqual((await readAuthFile(authPath)).token, tokens[0]);
  });
});

Deno.test("rotateToken replaces the token atomically and keeps mode 0600", async () => {
  await withHome(async (authPath) => {
    const first = await loadOrCreateToken(authPath);
    const second = await rotateToken(authPath);
    assert.notEqual(second, first);
    assert.deepEqual((await readAuthFile(authPath)).token, second);
    if (Deno.build.os !== "windows") {
      assert.deepEqual((await Deno.stat(authPath)).mode! & 0o777, 0o600);
    }
  });
});

Deno.test("a broken auth.json is refused with a clear error that never quotes the token", async () => {
  await withHome(async (authPath) => {
    const secret = "a".repeat(64);
    const cases: Array<[string, string]> = [
      [`{"version":1,"token":"${secret}",`, "not valid JSON"],
      [`{"version":2,"token":"${secret}","createdAt":"2026-01-01T00:00:00.000Z"}`, "version"],
      [
        `{"version":1,"token":"${secret.slice(1)}","createdAt":"2026-01-01T00:00:00.000Z"}`,
        "token",
      ],
      [`{"version":1,"token":"${secret}","createdAt":"soon"}`, "createdAt"],
      [`[1]`, "object"],
    ];
    for (const [text, rule] of cases) {
      await Deno.writeTextFile(authPath, text);
      const error = await rejection(() => loadOrCreateToken(authPath));
      assert.ok(error instanceof AuthFileError, "an AuthFileError is thrown");
      assert.deepEqual(error.code, "auth_file_invalid");
      assert.ok(error.message.includes(rule), `"${error.message}" names the rule "${rule}"`);
      assert.ok(!error.message.includes("aaaaaaaa"), "the message does not quote the file");
      assert.deepEqual(error.cause, undefined, "no cause that could quote the file");
    }
  });
});

Deno.test("an auth.json readable by others is narrowed to 0600", {
  ignore: Deno.build.os === "windows",
}, async () => {
  await withHome(async (authPath) => {
    await loadOrCreateToken(authPath);
    await Deno.chmod(authPath, 0o644);
    await loadOrCreateToken(authPath);
    assert.deepEqual((await Deno.stat(authPath)).mode! & 0o777, 0o600);
  });
});

Deno.test("TokenStore accepts only the current token, whatever the candidate's length", async () => {
  await withHome(async (authPath) => {
    const token = await loadOrCreateToken(authPath);
    const store = await TokenStore.open(authPath, { recheckIntervalMs: 0 });
    const generation = await store.verify(token);
    assert.ok(generation !== null, "the right token is accepted");
    assert.deepEqual(await store.currentGeneration(), generation);
    for (const wrong of ["", "x", token.slice(0, 63), `${token}0`, token.toUpperCase()]) {
      assert.deepEqual(await store.verify(wrong), null, `"${wrong.slice(0, 8)}…" is refused`);
    }
  });
});

Deno.test("TokenStore notices a rotation by another writer and tells its listeners", async () => {
  await withHome(async (authPath) => {
    const old = await loadOrCreateToken(authPath);
    const store = await TokenStore.open(authPath, { recheckIntervalMs: 0 });
    const before = await store.currentGeneration();
    const seen: Array<string | null> = [];
    const stop = store.onRotation((generation) => seen.push(generation));
    const fresh = await rotateToken(authPath);
    assert.deepEqual(await store.verify(old), null, "the old token stops working");
    const after = await store.verify(fresh);
    assert.ok(after !== null && after !== before, "the new token works under a new generation");
    assert.deepEqual(seen, [after]);
    stop();
  });
});

Deno.test("TokenStore.rotate takes the new token at once", async () => {
  await withHome(async (authPath) => {
    const old = await loadOrCreateToken(authPath);
    const store = await TokenStore.open(authPath); // default interval: rotate must not wait for it
    await store.rotate();
    assert.deepEqual(await store.verify(old), null);
    assert.ok(await store.verify((await readAuthFile(authPath)).token) !== null);
  });
});

Deno.test("TokenStore fails closed while auth.json is missing or invalid, and warns once", async () => {
  await withHome(async (authPath) => {
    const token = await loadOrCreateToken(authPath);
    const warnings: string[] = [];
    const store = await TokenStore.open(authPath, {
      recheckIntervalMs: 0,
      onWarning: (error) => warnings.push(error.code),
    });
    await Deno.remove(authPath);
    assert.deepEqual(await store.verify(token), null, "no token works while the file is missing");
    assert.deepEqual(await store.verify(token), null);
    await Deno.writeTextFile(authPath, "{not json");
    assert.deepEqual(await store.verify(token), null, "no token works while the file is invalid");
    assert.deepEqual(warnings, ["auth_file_missing", "auth_file_invalid"]);
    const fresh = await rotateToken(authPath);
    assert.ok(await store.verify(fresh) !== null, "a valid file brings the store back");
  });
});

Deno.test("TokenStore looks at the file at most once per interval unless forced", async () => {
  await withHome(async (authPath) => {
    const old = await loadOrCreateToken(authPath);
    const store = await TokenStore.open(authPath, { recheckIntervalMs: 3_600_000 });
    await rotateToken(authPath);
    assert.ok(await store.verify(old) !== null, "within the interval the old token still works");
    await store.refresh({ force: true });
    assert.equal(await store.verify(old), null, "a forced look sees the rotation");
  });
});
