import assert from "node:assert/strict";
import { join } from "node:path";
import type { EventPayloadMap, JournalEvent, RunConfig } from "@daedalus/protocol";
import { contentHash, homePaths, readRunConfig } from "@daedalus/storage";
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

/** A Run's resolved config, and what its queued event carried. */
interface Frozen {
  config: RunConfig;
  queued: EventPayloadMap["run.state_changed"];
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
    const frozenTurn = async (): Promise<Frozen> => {
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
      const config = core.store.read((db) => readRunConfig(db, started.runId));
      return { config, queued: queued.payload as EventPayloadMap["run.state_changed"] };
    };
    const names = ({ config }: Frozen) => config.skills.map((s) => `${s.name}: ${s.description}`);
    const carried = ({ queued }: Frozen) => (queued.runConfigParts ?? []).map((part) => part.kind);

    const first = await frozenTurn();
    assert.deepEqual(names(first), ["csv: Clean CSV files"]);
    assert.deepEqual(carried(first), ["tool_schemas", "identity", "skills"]);
    const warm = await frozenTurn();
    assert.deepEqual(carried(warm), [], "a warm turn journals references only");
    assert.deepEqual(warm.config, first.config, "the same parts resolve to the same config");

    // Edited by hand between turns: a skill disabled in config.yaml, another one added.
    await Deno.writeTextFile(paths.config, "version: 1\nskills:\n  disabled: [csv]\n");
    await writeSkill(paths.skills, "pdf-tools", "Fill PDF forms");
    const edited = await frozenTurn();
    assert.deepEqual(names(edited), ["pdf-tools: Fill PDF forms"]);
    assert.deepEqual(carried(edited), ["skills"], "only the changed part is journaled");

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
    const { config } = last;
    assert.equal(config.parts.toolSchemas, first.config.parts.toolSchemas);
    assert.equal(config.parts.toolSchemas, contentHash(JSON.stringify(config.tools)));
    assert.equal(config.parts.identity, contentHash(JSON.stringify(config.identity)));
    assert.equal(config.parts.skills, contentHash(JSON.stringify(config.skills)));
    assert.ok(config.tools.some((tool) => tool.name === "echo"), "the given tool is frozen");
    assert.equal(config.identity.text, bundledIdentity().text);
    assert.equal(config.identity.hash, await sha256(bundledIdentity().text));
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
});
