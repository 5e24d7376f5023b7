import assert from "node:assert/strict";
import { handlerCalls } from "./_test_handler_calls.ts";
import { join } from "node:path";
import type { ResultOf, RpcError } from "@daedalus/protocol";
import { readConfig } from "@daedalus/storage";
import { createSkillHandlers, type SkillMethod } from "./skill_handlers.ts";

interface Home {
  skillsRoot: string;
  configPath: string;
  call<M extends SkillMethod>(method: M, params: unknown): Promise<ResultOf<M>>;
  refuse(method: SkillMethod, params: unknown): Promise<RpcError>;
}

async function withHome(fn: (home: Home) => Promise<void>, configText?: string) {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "daedalus-skill-rpc-" }));
  const skillsRoot = join(dir, "skills");
  const configPath = join(dir, "config.yaml");
  await Deno.mkdir(skillsRoot);
  if (configText !== undefined) await Deno.writeTextFile(configPath, configText);
  const handlers = createSkillHandlers({ skillsRoot, configPath });
  const { call, refuse } = handlerCalls(handlers);
  try {
    await fn({ skillsRoot, configPath, call, refuse });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function addSkill(skillsRoot: string, name: string, description = `The ${name} skill`) {
  await Deno.mkdir(join(skillsRoot, name));
  await Deno.writeTextFile(
    join(skillsRoot, name, "SKILL.md"),
    `---\nname: ${name}\ndescription: ${description}\n---\nBody\n`,
  );
}

Deno.test("skill.list returns skills and diagnostics together", async () => {
  await withHome(async ({ skillsRoot, call }) => {
    await addSkill(skillsRoot, "pdf-tools");
    await Deno.mkdir(join(skillsRoot, "broken"));
    const result = await call("skill.list", {});
    assert.deepEqual(result.skills, [{
      name: "pdf-tools",
      description: "The pdf-tools skill",
      location: join(skillsRoot, "pdf-tools", "SKILL.md"),
      enabled: true,
    }]);
    assert.deepEqual(result.diagnostics.map((d) => [d.entry, d.code]), [
      ["broken", "missing_skill_md"],
    ]);
  });
});

Deno.test("skill.set_enabled round trip persists in config.yaml", async () => {
  const configText = "# my providers\nversion: 1\nskills:\n  disabled: [old-one]\n";
  await withHome(async ({ skillsRoot, configPath, call }) => {
    await addSkill(skillsRoot, "pdf-tools");
    await addSkill(skillsRoot, "csv");

    const off = await call("skill.set_enabled", { name: "pdf-tools", enabled: false });
    assert.equal(off.skill.enabled, false);
    assert.equal(off.skill.name, "pdf-tools");
    assert.deepEqual((await readConfig(configPath)).skills.disabled, ["old-one", "pdf-tools"]);
    const listed = await call("skill.list", {});
    assert.deepEqual(listed.skills.map((s) => [s.name, s.enabled]), [
      ["csv", true],
      ["pdf-tools", false],
    ]);

    const written = await Deno.readTextFile(configPath);
    const again = await call("skill.set_enabled", { name: "pdf-tools", enabled: false });
    assert.equal(again.skill.enabled, false);
    assert.equal(
      await Deno.readTextFile(configPath),
      written,
      "an unchanged state is not rewritten",
    );

    const on = await call("skill.set_enabled", { name: "pdf-tools", enabled: true });
    assert.equal(on.skill.enabled, true);
    assert.deepEqual((await readConfig(configPath)).skills.disabled, ["old-one"]);
  }, configText);
});

Deno.test("skill.set_enabled creates config.yaml when there is none", async () => {
  await withHome(async ({ skillsRoot, configPath, call }) => {
    await addSkill(skillsRoot, "csv");
    await call("skill.set_enabled", { name: "csv", enabled: false });
    assert.deepEqual((await readConfig(configPath)).skills.disabled, ["csv"]);
  });
});

Deno.test("skill.set_enabled refuses unknown and invalid skills with skill_not_found", async () => {
  await withHome(async ({ skillsRoot, configPath, refuse }) => {
    await Deno.mkdir(join(skillsRoot, "broken"));
    for (const name of ["missing", "broken"]) {
      const error = await refuse("skill.set_enabled", { name, enabled: false });
      assert.equal(error.code, -32602);
      assert.equal(error.reasonCode, "skill_not_found");
      assert.equal(error.data.field, "name");
    }
    await assert.rejects(Deno.stat(configPath), Deno.errors.NotFound, "nothing was written");
  });
});

Deno.test("skill handlers report a broken config.yaml without quoting or overwriting it", async () => {
  const configText = "version: 1\nproviders:\n  x: {api_key: sk-secret-in-yaml-0123\n";
  await withHome(async ({ skillsRoot, configPath, refuse }) => {
    await addSkill(skillsRoot, "csv");
    for (
      const [method, params] of [["skill.list", {}], ["skill.set_enabled", {
        name: "csv",
        enabled: false,
      }]] as const
    ) {
      const error = await refuse(method, params);
      assert.equal(error.reasonCode, "config_invalid");
      assert.ok(!error.message.includes("sk-secret"), error.message);
    }
    assert.equal(await Deno.readTextFile(configPath), configText);
  }, configText);
});
