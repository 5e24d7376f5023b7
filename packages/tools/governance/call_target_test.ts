import assert from "node:assert/strict";
import { join } from "node:path";
import { TOOL_IDS } from "@daedalus/protocol";
import { callTarget, resolveCallTarget } from "./call_target.ts";

const roots = { workspaceRoot: "/ws", artifactsFolder: "/home/.daedalus/artifacts/thread_1" };

Deno.test("callTarget: file tools touch their path, resolved against the workspace", () => {
  const cases: [string, unknown, unknown][] = [
    ["read", { path: "src/a.ts" }, inside("/ws/src/a.ts", "src/a.ts")],
    ["write", { path: "./b.md", content: "" }, inside("/ws/b.md", "b.md")],
    ["edit", { path: "/ws/c/../d.ts", oldString: "x", newString: "y" }, inside("/ws/d.ts", "d.ts")],
    ["list", {}, inside("/ws", "")],
    ["glob", { pattern: "*.ts" }, inside("/ws", "")],
    ["grep", { pattern: "x", path: "lib" }, inside("/ws/lib", "lib")],
    ["read", { path: "../etc/passwd" }, outside("/etc/passwd")],
    ["read", { path: "/wsx/a" }, outside("/wsx/a")],
    ["list", { path: "/" }, outside("/")],
    [
      "read",
      { path: "/home/.daedalus/artifacts/thread_1/r.txt" },
      { ...outside("/home/.daedalus/artifacts/thread_1/r.txt"), inArtifacts: true },
    ],
  ];
  for (const [toolId, args, expected] of cases) {
    assert.deepEqual(
      callTarget(toolId, args, roots),
      expected,
      `${toolId} ${JSON.stringify(args)}`,
    );
  }
});

Deno.test("callTarget: process_start touches its command, every other tool nothing", () => {
  assert.deepEqual(callTarget("process_start", { command: "git status" }, roots), {
    kind: "command",
    command: "git status",
  });
  const others = TOOL_IDS.filter((id) =>
    !["read", "write", "edit", "list", "glob", "grep", "process_start"].includes(id)
  );
  assert.equal(others.length, 16, "the 16 tools without a target");
  for (const toolId of [...others, "mcp_tool_of_a_server"]) {
    assert.deepEqual(
      callTarget(toolId, { path: "/etc", command: "rm" }, roots),
      { kind: "none" },
      toolId,
    );
  }
});

Deno.test("resolveCallTarget follows symlinks: a link in the workspace to outside is outside", async () => {
  const base = await Deno.realPath(await Deno.makeTempDir());
  try {
    const ws = join(base, "ws");
    const outsideDir = join(base, "outside");
    await Deno.mkdir(join(ws, "src"), { recursive: true });
    await Deno.mkdir(outsideDir);
    await Deno.writeTextFile(join(outsideDir, "secret"), "s");
    await Deno.symlink(outsideDir, join(ws, "link"));
    const real = await resolveCallTarget("read", { path: "link/secret" }, { workspaceRoot: ws });
    assert.deepEqual(real, { ...outside(join(outsideDir, "secret")) });
    const lexical = callTarget("read", { path: "link/secret" }, { workspaceRoot: ws });
    assert.equal(lexical.kind === "path" && lexical.insideWorkspace, true, "lexically inside");
    assert.deepEqual(
      await resolveCallTarget("write", { path: "src/new.ts", content: "" }, { workspaceRoot: ws }),
      inside(join(ws, "src/new.ts"), "src/new.ts"),
    );
    assert.deepEqual(
      await resolveCallTarget("process_start", { command: "ls" }, { workspaceRoot: ws }),
      { kind: "command", command: "ls" },
    );
    await assert.rejects(
      resolveCallTarget("read", { path: "a\0b" }, { workspaceRoot: ws }),
      (error: Error & { code?: string }) => error.code === "invalid_arguments",
    );
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

function inside(path: string, workspacePath: string) {
  return { kind: "path", path, insideWorkspace: true, workspacePath, inArtifacts: false };
}

function outside(path: string) {
  return { kind: "path", path, insideWorkspace: false, workspacePath: null, inArtifacts: false };
}
