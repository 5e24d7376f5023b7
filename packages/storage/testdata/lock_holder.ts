/**
 * Test fixture: `lock_holder.ts <lock path> [--timeout-ms=N] [--spawn-child]` takes the
 * runtime lock, prints "locked", and holds it until stdin closes (then releases it and
 * prints "released") or it is killed. If the lock is taken, prints "home_locked" and exits
 * 3. With `--spawn-child` it first starts a long-sleeping child process and prints
 * "child <pid>", to show that children do not inherit the lock.
 *
 * @module
 */
import { HomeLockedError } from "../errors.ts";
import { acquireRuntimeLock, type RuntimeLock } from "../lock.ts";

const [lockPath, ...flags] = Deno.args;
if (lockPath === undefined) throw new TypeError("usage: lock_holder.ts <lock path> [flags]");
const timeoutFlag = flags.find((flag) => flag.startsWith("--timeout-ms="));
const timeoutMs = timeoutFlag ? Number(timeoutFlag.slice("--timeout-ms=".length)) : 5_000;

let lock: RuntimeLock;
try {
  lock = await acquireRuntimeLock(lockPath, { timeoutMs });
} catch (error) {
  if (!(error instanceof HomeLockedError)) throw error;
  console.log(error.code);
  Deno.exit(3);
}
if (flags.includes("--spawn-child")) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", "await new Promise((resolve) => setTimeout(resolve, 30_000))"],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  console.log(`child ${child.pid}`);
}
console.log("locked");
// Reading stdin keeps the process alive; EOF is the parent's request for a clean release.
for await (const _chunk of Deno.stdin.readable) {
  // Input is ignored.
}
await lock.release();
console.log("released");
