import assert from "node:assert/strict";
import { join } from "node:path";
import type { JournalEvent } from "@daedalus/protocol";
import { homePaths } from "@daedalus/storage";
import { openRuntimeCore } from "../runtime_core.ts";
import { createScriptedProvider } from "../providers/scripted.ts";
import { z } from "zod";
import { defineTool } from "@daedalus/tools";
import type { RpcSession } from "../server/dispatcher.ts";
import { runSettled } from "../_test_wait.ts";
import { bundledIdentity, sha256 } from "../context/identity.ts";

const session: RpcSession = { id: "test", transport: "http" };

const echoTool = defineTool({
  id: "echo",
  description: "Echoes its text",
  params: z.object({ text: z.string().optional() }),
  mutating: false,
  risk: "read",
  run: (params) => Promise.resolve({ content: `echo: ${params.text}` }),
});

async function writeSkill(root: string, name: string, description: string) {
  await Deno.mkdir(join(root, name), { recursive: true });
  await Deno.writeTextFile(
    join(root, name, "SKILL.md"),
    `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\nBody.\n`,
  );
}

interface FrozenConfig {
  skills: { name: string; description: string }[];
  toolSchemaHash: string;
  tools: unknown[];
  identity: { text: string; hash: string };
}

Deno.test("each turn.start freezes the config and skills as they are on disk at that moment", async () => {
  const home = await Deno.makeTempDir({ prefix: "daedalus-freeze-" });
  const paths = homePaths(home);
  await writeSkill(paths.skills, "csv", "Clean CSV files");
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/workspaces`,
    providers: [createScriptedProvider({ script: () => ({ text: ["ok"] }) })],
    tools: [echoTool],
    threadTitles: false,
    memoryRefinement: false,
  });
  const events: JournalEvent[] = [];
  core.hub.subscribe((event) => events.push(event));
  const call = async (method: string, params: unknown) => {
    const outcome = await core.dispatcher.dispatch(method, params, session);
    outcome.afterResponse?.();
    // deno-lint-ignore no-explicit-any
    return outcome.result as any;
  };
  try {
    const { thread } = await call("thread.create", { title: "t" });
    const frozenTurn = async (): Promise<FrozenConfig> => {
      const started = await call("turn.start", {
        threadId: thread.id,
        content: "go",
        providerId: "scripted",
        modelId: "scripted-model",
      });
      await runSettled(events, started.runId);
      const queued = events.find((e) =>
        e.type === "run.state_changed" && e.runId === started.runId &&
        (e.payload as { status: string }).status === "queued"
      );
      assert.ok(queued, "the run's queued event was published");
      return (queued.payload as unknown as { runConfig: FrozenConfig }).runConfig;
    };
    const names = (config: FrozenConfig) => config.skills.map((s) => `${s.name}: ${s.description}`);

    const first = await frozenTurn();
    assert.deepEqual(names(first), ["csv: Clean CSV files"]);

    // Edited by hand between turns: a skill disabled in config.yaml, another one added.
    await Deno.writeTextFile(paths.config, "version: 1\nskills:\n  disabled: [csv]\n");
    await writeSkill(paths.skills, "pdf-tools", "Fill PDF forms");
    assert.deepEqual(names(await frozenTurn()), ["pdf-tools: Fill PDF forms"]);

    // Through the runtime's own config owner, and a SKILL.md edited.
    await call("skill.set_enabled", { name: "csv", enabled: true });
    await writeSkill(paths.skills, "pdf-tools", "Fill and merge PDF forms");
    assert.deepEqual(names(await frozenTurn()), [
      "csv: Clean CSV files",
      "pdf-tools: Fill and merge PDF forms",
    ]);

    await Deno.remove(join(paths.skills, "csv"), { recursive: true });
    const last = await frozenTurn();
    assert.deepEqual(names(last), ["pdf-tools: Fill and merge PDF forms"]);

    // The memoized hashes are the ones a fresh computation gives.
    assert.equal(last.toolSchemaHash, first.toolSchemaHash);
    assert.equal(last.toolSchemaHash, await sha256(JSON.stringify(last.tools)));
    assert.deepEqual(last.tools, first.tools);
    assert.equal(last.identity.text, bundledIdentity().text);
    assert.equal(last.identity.hash, await sha256(bundledIdentity().text));
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
});
