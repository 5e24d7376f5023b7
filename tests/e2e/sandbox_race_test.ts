/**
 * The link-flip races of the sealed sandbox: the real tools in the real sandbox Worker
 * (ToolSandboxes, the runtime's own class) are called 400 times each while a separate
 * process flips a path between a file inside the workspace and a symlink to a secret
 * outside; the counts are printed.
 *
 * @module
 */
import assert from "node:assert/strict";
import { ToolSandboxes } from "../../packages/runtime/tools/sandbox.ts";

const SECRET = "sandbox-e2e-secret-5be1";

/**
 * A separate process flipping `link` between a file inside and a symlink to `secret` as
 * fast as it can, each flip an atomic rename (the path always exists, in one state or the
 * other; both states cost the same two syscalls).
 */
function startFlipper(link: string, secret: string): Deno.ChildProcess {
  const code = `
    const [link, secret] = ${JSON.stringify([link, secret])};
    Deno.writeTextFileSync(link + ".master", "inside\\n");
    for (;;) {
      Deno.linkSync(link + ".master", link + ".file");
      Deno.renameSync(link + ".file", link);
      Deno.symlinkSync(secret, link + ".link");
      Deno.renameSync(link + ".link", link);
    }`;
  return new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    stdout: "null",
    stderr: "inherit",
  }).spawn();
}

/** Stops the flipper; it must still have been flipping (else the race proved nothing). */
async function stopFlipper(flipper: Deno.ChildProcess): Promise<void> {
  let running = true;
  try {
    flipper.kill("SIGKILL");
  } catch {
    running = false;
  }
  await flipper.status;
  assert.ok(running, "the flipper died during the race");
}

/** A workspace, a secret outside it and the runtime's sandboxes, for the races. */
async function raceWorld() {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "daedalus-race-" }));
  const workspace = `${base}/ws`;
  const outside = `${base}/outside`;
  const artifacts = `${base}/artifacts`;
  for (const dir of [workspace, outside, artifacts]) await Deno.mkdir(dir);
  await Deno.writeTextFile(`${outside}/secret.txt`, `${SECRET}\n`);
  const sandboxes = new ToolSandboxes(artifacts, () => []);
  const call = (policy: "read_only" | "workspace_write", tool: string, args: unknown, i: number) =>
    sandboxes.run(policy, tool, args, {
      threadId: `thread_${"3".repeat(32)}`,
      runId: `run_${"3".repeat(32)}`,
      itemId: `item_${i.toString(16).padStart(32, "0")}`,
      workspaceRoot: workspace,
      signal: new AbortController().signal,
    });
  return {
    workspace,
    outside,
    call,
    async [Symbol.asyncDispose]() {
      sandboxes.close();
      await Deno.remove(base, { recursive: true });
    },
  };
}

const RACE_CALLS = 400;

Deno.test("read race: a link flipped to a secret during 400 sandboxed reads never reads it", async () => {
  await using world = await raceWorld();
  const link = `${world.workspace}/flip.txt`;
  const flipper = startFlipper(link, `${world.outside}/secret.txt`);
  const counts = { escaped: 0, refused: 0, inside: 0, other: 0 };
  const otherCodes = new Map<string, number>();
  try {
    for (let i = 0; i < RACE_CALLS; i++) {
      const { result } = await world.call("read_only", "read", { path: "flip.txt" }, i);
      if (result.content.includes(SECRET)) counts.escaped++;
      else if (result.errorCode === "permission_denied") counts.refused++;
      else if (!result.isError && result.content.includes("inside")) counts.inside++;
      else {
        counts.other++;
        const code = result.errorCode ?? "none";
        otherCodes.set(code, (otherCodes.get(code) ?? 0) + 1);
      }
    }
  } finally {
    await stopFlipper(flipper);
  }
  console.log(
    `read race: ${counts.escaped}/${RACE_CALLS} escaped, ${counts.refused} refused, ` +
      `${counts.inside} read inside, ${counts.other} other errors ` +
      `(${[...otherCodes].map(([code, n]) => `${code} ${n}`).join(", ") || "none"})`,
  );
  assert.equal(counts.escaped, 0);
  assert.ok(counts.refused > 0, "the link to the secret was there to be followed");
});

Deno.test("write race: a link flipped to a secret during 400 sandboxed writes never writes it", async () => {
  await using world = await raceWorld();
  const secretPath = `${world.outside}/secret.txt`;
  const link = `${world.workspace}/flip.txt`;
  const flipper = startFlipper(link, secretPath);
  const counts = { escaped: 0, refused: 0, wrote: 0, replaced: 0, other: 0 };
  try {
    for (let i = 0; i < RACE_CALLS; i++) {
      const { result } = await world.call(
        "workspace_write",
        "write",
        { path: "flip.txt", content: `written ${i}\n` },
        i,
      );
      const secret = await Deno.readTextFile(secretPath);
      const strays = [...Deno.readDirSync(world.outside)].length - 1;
      if (secret !== `${SECRET}\n` || strays > 0) counts.escaped++;
      else if (result.errorCode === "permission_denied") counts.refused++;
      else if (!result.isError) counts.wrote++;
      else if (result.errorCode === "write_verification_failed") counts.replaced++;
      else counts.other++;
    }
  } finally {
    await stopFlipper(flipper);
  }
  console.log(
    `write race: ${counts.escaped}/${RACE_CALLS} escaped, ${counts.refused} refused, ` +
      `${counts.wrote} wrote inside, ${counts.replaced} replaced by the flipper right after, ` +
      `${counts.other} other errors`,
  );
  assert.equal(counts.escaped, 0);
  assert.equal(await Deno.readTextFile(secretPath), `${SECRET}\n`);
  assert.ok(counts.wrote + counts.replaced > 0, "writes inside still land under the race");
});
