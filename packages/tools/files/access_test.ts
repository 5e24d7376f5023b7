import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestWorkspace, type TestWorkspace } from "../_testing.ts";
import { executeTool } from "../execute.ts";
import { type ToolContext, type ToolDefinition, ToolError } from "../tool.ts";
import { readTool } from "./read.ts";
import { grepTool } from "./grep.ts";
import { globTool } from "./glob.ts";
import { listTool } from "./list.ts";
import { writeTool } from "./write.ts";
import { editTool } from "./edit.ts";

const SECRET = "outside-secret-7f3a";

/** A workspace with a secret file beside it and links into and out of it. */
async function sealedWorkspace(policy: ToolContext["executionPolicy"]) {
  const ws = await createTestWorkspace();
  const outside = join(ws.base, "outside");
  await Deno.mkdir(outside);
  await Deno.writeTextFile(join(outside, "secret.txt"), `${SECRET}\n`);
  const home = join(ws.base, "home");
  await Deno.mkdir(home);
  const protectedFiles = ["config.yaml", "auth.json", "sessions.json"].map((name) =>
    join(home, name)
  );
  for (const file of protectedFiles) await Deno.writeTextFile(file, `${SECRET} in ${file}\n`);
  await ws.write("inside.txt", "inside text\n");
  await Deno.symlink(join(outside, "secret.txt"), join(ws.root, "file-link"));
  await Deno.symlink(outside, join(ws.root, "dir-link"));
  const context: ToolContext = { ...ws.context, executionPolicy: policy, protectedFiles };
  return { ws, outside, home, protectedFiles, context };
}

async function call(tool: ToolDefinition<never>, args: unknown, context: ToolContext) {
  return await executeTool(tool as ToolDefinition<unknown>, args, {
    ...context,
    facts: { fileChanges: [], processes: [] },
  });
}

/**
 * The tool's own access rules alone, without the wrapper's permission check in front (it
 * refuses a write in read_only before the tool runs; the seal must refuse it too).
 */
async function callSealed(tool: ToolDefinition<unknown>, args: unknown, context: ToolContext) {
  const parsed = tool.params.safeParse(args);
  assert.ok(parsed.success, "valid arguments");
  try {
    return await tool.run(parsed.data, { ...context, facts: { fileChanges: [], processes: [] } });
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    return { isError: true, errorCode: error.code, content: error.message };
  }
}

function assertDenied(
  result: { isError?: boolean; errorCode?: string; content: string },
  path: string,
) {
  assert.equal(result.errorCode, "permission_denied", result.content);
  // Inside paths are shown as written, outside ones absolute (`..` resolved).
  const named = path.replace(/^(\.\.\/)+/, "");
  assert.ok(result.content.includes(named), `the message names ${path}: ${result.content}`);
  assert.ok(!result.content.includes(SECRET), "nothing of the secret comes back");
}

for (const policy of ["read_only", "workspace_write"] as const) {
  Deno.test(`${policy}: read, list, glob and grep refuse every way out of the workspace`, async () => {
    const { ws, outside, context } = await sealedWorkspace(policy);
    await using _ = ws;
    const inside = await call(readTool as never, { path: "inside.txt" }, context);
    assert.equal(inside.isError, undefined, inside.content);
    assert.match(inside.content, /inside text/);
    for (
      const path of [
        "../outside/secret.txt",
        join(outside, "secret.txt"),
        "file-link",
        "dir-link/secret.txt",
      ]
    ) {
      assertDenied(await call(readTool as never, { path }, context), path);
      assertDenied(await call(grepTool as never, { pattern: "secret", path }, context), path);
    }
    for (const path of ["../outside", outside, "dir-link"]) {
      assertDenied(await call(listTool as never, { path }, context), path);
      assertDenied(await call(globTool as never, { pattern: "*", path }, context), path);
    }
    const tree = await call(grepTool as never, { pattern: "secret|inside" }, context);
    assert.ok(!tree.content.includes(SECRET), tree.content);
    assert.match(tree.content, /inside\.txt:1:inside text/);
    assert.match(tree.content, /permission_denied.*file-link/, "the refused link is named");
    const globbed = await call(globTool as never, { pattern: "**/*" }, context);
    assert.ok(!globbed.content.includes("secret.txt"), globbed.content);
    const listed = await call(listTool as never, {}, context);
    assert.match(listed.content, /file-link@\t-\t-/, "an outside link shows no size or time");
  });
}

Deno.test("read_only refuses writes; workspace_write writes inside but never through a link out", async () => {
  {
    const { ws, context } = await sealedWorkspace("read_only");
    await using _ = ws;
    const refused = await call(writeTool as never, { path: "new.txt", content: "x" }, context);
    assert.equal(refused.errorCode, "permission_denied", "the wrapper refuses a write");
    assertDenied(
      await callSealed(
        writeTool as ToolDefinition<unknown>,
        { path: "new.txt", content: "x" },
        context,
      ),
      "new.txt",
    );
  }
  const { ws, outside, context } = await sealedWorkspace("workspace_write");
  await using _ = ws;
  const wrote = await call(
    writeTool as never,
    { path: "sub/new.txt", content: "hello\n" },
    context,
  );
  assert.equal(wrote.isError, undefined, wrote.content);
  assert.equal(await Deno.readTextFile(join(ws.root, "sub/new.txt")), "hello\n");
  const edited = await call(
    editTool as never,
    { path: "inside.txt", oldString: "inside", newString: "edited" },
    context,
  );
  assert.equal(edited.isError, undefined, edited.content);
  for (
    const path of [
      "../outside/new.txt",
      join(outside, "new.txt"),
      "file-link",
      "dir-link/new.txt",
      "dir-link/deep/new.txt",
    ]
  ) {
    assertDenied(await call(writeTool as never, { path, content: "pwned" }, context), path);
  }
  assertDenied(
    await call(
      editTool as never,
      { path: "file-link", oldString: SECRET, newString: "x" },
      context,
    ),
    "file-link",
  );
  assert.equal(await Deno.readTextFile(join(outside, "secret.txt")), `${SECRET}\n`);
  assert.deepEqual([...Deno.readDirSync(outside)].map((e) => e.name), ["secret.txt"]);
});

Deno.test("full_access: the protected home files are refused by path, .., symlink and hard link", async () => {
  const { ws, home, protectedFiles, context } = await sealedWorkspace("full_access");
  await using _ = ws;
  const outsideRead = await call(readTool as never, { path: "file-link" }, context);
  assert.match(outsideRead.content, new RegExp(SECRET), "full_access still reads outside files");
  await Deno.symlink(join(home, "auth.json"), join(ws.root, "auth-link"));
  await Deno.link(join(home, "sessions.json"), join(ws.root, "sessions-hardlink"));
  const relative = `../home/config.yaml`;
  for (const path of [...protectedFiles, relative, "auth-link", "sessions-hardlink"]) {
    assertDenied(await call(readTool as never, { path }, context), path);
    assertDenied(await call(grepTool as never, { pattern: ".", path }, context), path);
    assertDenied(await call(writeTool as never, { path, content: "x" }, context), path);
    assertDenied(
      await call(editTool as never, { path, oldString: SECRET, newString: "x" }, context),
      path,
    );
  }
  const overHome = await call(
    grepTool as never,
    { pattern: SECRET.slice(0, 8), path: home },
    context,
  );
  assert.ok(!overHome.content.includes(`${SECRET} in`), overHome.content);
  for (const file of protectedFiles) {
    assert.equal(await Deno.readTextFile(file), `${SECRET} in ${file}\n`, "untouched");
  }
});

/** Flips `link` between a file inside and a symlink to the secret until stopped. */
function flipper(ws: TestWorkspace, outside: string, link: string) {
  let running = true;
  const done = (async () => {
    while (running) {
      await Deno.remove(link).catch(() => {});
      await Deno.symlink(join(outside, "secret.txt"), link).catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, 0));
      await Deno.remove(link).catch(() => {});
      await Deno.writeTextFile(link, "inside\n").catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await done;
    },
    ws,
  };
}

Deno.test("a link flipped during reads and writes never lets outside content in or out", async () => {
  const { ws, outside, context } = await sealedWorkspace("workspace_write");
  await using _ = ws;
  const link = join(ws.root, "flip.txt");
  const flip = flipper(ws, outside, link);
  let escaped = 0;
  let refused = 0;
  try {
    for (let i = 0; i < 100; i++) {
      const read = await call(readTool as never, { path: "flip.txt" }, context);
      if (read.content.includes(SECRET)) escaped++;
      if (read.errorCode === "permission_denied") refused++;
      const write = await call(
        writeTool as never,
        { path: "flip.txt", content: `written ${i}\n` },
        context,
      );
      if (write.errorCode === "permission_denied") refused++;
      if (!(await Deno.readTextFile(join(outside, "secret.txt"))).includes(SECRET)) escaped++;
    }
  } finally {
    await flip.stop();
  }
  assert.equal(escaped, 0);
  // Else the flipper never had the link in place when a call looked, and nothing was shown.
  assert.ok(refused > 0, "no call ever met the link to the secret");
  assert.deepEqual([...Deno.readDirSync(outside)].map((e) => e.name), ["secret.txt"]);
});

Deno.test("a workspace named through a symlink works sealed, with paths shown as named", async () => {
  const { ws, context } = await sealedWorkspace("workspace_write");
  await using _ = ws;
  const alias = join(ws.base, "alias");
  await Deno.symlink(ws.root, alias);
  const aliased: ToolContext = { ...context, workspaceRoot: alias };
  const read = await call(readTool as never, { path: "inside.txt" }, aliased);
  assert.equal(read.isError, undefined, read.content);
  const found = await call(grepTool as never, { pattern: "inside" }, aliased);
  assert.match(found.content, /^inside\.txt:1:inside text/m);
  const globbed = await call(globTool as never, { pattern: "*.txt" }, aliased);
  assert.match(globbed.content, /^inside\.txt$/m);
  const wrote = await call(writeTool as never, { path: "new.txt", content: "x\n" }, aliased);
  assert.equal(wrote.isError, undefined, wrote.content);
  assertDenied(await call(readTool as never, { path: "file-link" }, aliased), "file-link");
});

Deno.test("read_only reads its own thread's large-result artifacts, not another thread's", async () => {
  const { ws, context } = await sealedWorkspace("read_only");
  await using _ = ws;
  const own = join(context.artifactsRoot, context.threadId, "item-1.txt");
  const other = join(context.artifactsRoot, "thread-2", "item-1.txt");
  for (const file of [own, other]) {
    await Deno.mkdir(join(file, ".."), { recursive: true });
    await Deno.writeTextFile(file, "artifact text\n");
  }
  const read = await call(readTool as never, { path: own }, context);
  assert.match(read.content, /artifact text/);
  assertDenied(await call(readTool as never, { path: other }, context), other);
  assertDenied(
    await callSealed(writeTool as ToolDefinition<unknown>, { path: own, content: "x" }, context),
    own,
  );
});

Deno.test("a protected file not created yet is refused through any name of its folder", async () => {
  const { ws, home, context } = await sealedWorkspace("full_access");
  await using _ = ws;
  // The home as configured is a link to the real one (a symlinked home, /tmp on macOS).
  const linkedHome = join(ws.base, "home-link");
  await Deno.symlink(home, linkedHome);
  await Deno.remove(join(home, "sessions.json"));
  const viaLink = { ...context, protectedFiles: [join(linkedHome, "sessions.json")] };
  for (const path of [join(home, "sessions.json"), join(linkedHome, "sessions.json")]) {
    assertDenied(await call(writeTool as never, { path, content: "planted" }, viaLink), path);
  }
  await assert.rejects(Deno.lstat(join(home, "sessions.json")), Deno.errors.NotFound);
});
