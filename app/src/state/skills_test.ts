import assert from "node:assert/strict";
import type { Skill } from "@daedalus/client";
import { fakeCall, rpcFailure } from "./_fake_call.ts";
import {
  emptySkills,
  loadSkills,
  replaceSkill,
  setSkillEnabled,
  shapeSkillList,
  skillsFolderOf,
  skillsView,
} from "./skills.ts";

const skill = (name: string, enabled = true): Skill => ({
  name,
  description: `${name} helps`,
  location: `/home/u/.daedalus/skills/${name}/SKILL.md`,
  enabled,
});

Deno.test("skills: listed by name; diagnostics by entry with the overflow line last", () => {
  const shaped = shapeSkillList({
    skills: [skill("zeta"), skill("alpha")],
    diagnostics: [
      { entry: "", code: "too_many_diagnostics", message: "3 more invalid entries" },
      { entry: "Bad Name", code: "invalid_name", message: "Name is invalid" },
      { entry: "absent", code: "missing_skill_md", message: "No SKILL.md" },
    ],
  });
  assert.deepEqual(shaped.skills.map((s) => s.name), ["alpha", "zeta"]);
  assert.deepEqual(shaped.diagnostics.map((d) => d.code), [
    "missing_skill_md",
    "invalid_name",
    "too_many_diagnostics",
  ]);
});

Deno.test("skills: the server's copy replaces the listed skill in place", () => {
  const list = [skill("alpha"), skill("beta")];
  assert.deepEqual(replaceSkill(list, skill("beta", false)).map((s) => s.enabled), [true, false]);
  assert.deepEqual(replaceSkill(list, skill("aardvark")).map((s) => s.name), [
    "aardvark",
    "alpha",
    "beta",
  ]);
});

Deno.test("skills: the skills folder is read off a valid skill's location", () => {
  assert.equal(skillsFolderOf([skill("alpha")]), "/home/u/.daedalus/skills/");
  const windows = { ...skill("beta"), location: "C:\\Users\\u\\.daedalus\\skills\\beta\\SKILL.md" };
  assert.equal(skillsFolderOf([windows]), "C:\\Users\\u\\.daedalus\\skills\\");
  const odd = { ...skill("gamma"), location: "/elsewhere/SKILL.md" };
  assert.equal(skillsFolderOf([odd]), null);
  assert.equal(skillsFolderOf([]), null);
});

Deno.test("skills: load fills the view; a failed refresh keeps the list and shows the code", async () => {
  skillsView.value = emptySkills();
  const ok = fakeCall({ "skill.list": () => ({ skills: [skill("alpha")], diagnostics: [] }) });
  await loadSkills(ok.call);
  assert.equal(skillsView.value.status, "ready");
  assert.deepEqual(skillsView.value.skills.map((s) => s.name), ["alpha"]);

  const failing = fakeCall({
    "skill.list": () => {
      throw rpcFailure("config_invalid", "config.yaml is not valid");
    },
  });
  await loadSkills(failing.call);
  assert.equal(skillsView.value.status, "failed");
  assert.deepEqual(skillsView.value.error, {
    code: "config_invalid",
    message: "config.yaml is not valid",
  });
  assert.deepEqual(skillsView.value.skills.map((s) => s.name), ["alpha"], "list kept");
});

Deno.test("skills: an older refresh that answers last does not overwrite a newer one", async () => {
  skillsView.value = emptySkills();
  let releaseOld: () => void = () => {};
  const old = fakeCall({
    "skill.list": () =>
      new Promise((resolve) => {
        releaseOld = () => resolve({ skills: [skill("old")], diagnostics: [] });
      }),
  });
  const fresh = fakeCall({ "skill.list": () => ({ skills: [skill("new")], diagnostics: [] }) });
  const first = loadSkills(old.call);
  await loadSkills(fresh.call);
  releaseOld();
  await first;
  assert.deepEqual(skillsView.value.skills.map((s) => s.name), ["new"]);
});

Deno.test("skills: toggling sends set_enabled and shows the server's answer", async () => {
  skillsView.value = { ...emptySkills(), status: "ready", skills: [skill("alpha")] };
  const fake = fakeCall({
    "skill.set_enabled": (params) => ({ skill: skill("alpha", params.enabled as boolean) }),
  });
  assert.equal(await setSkillEnabled("alpha", false, fake.call), true);
  assert.deepEqual(fake.calls, [{
    method: "skill.set_enabled",
    params: { name: "alpha", enabled: false },
  }]);
  assert.equal(skillsView.value.skills[0].enabled, false);
  assert.equal(skillsView.value.pending.size, 0);
});

Deno.test("skills: a refused toggle leaves the switch as it was and records why", async () => {
  skillsView.value = { ...emptySkills(), status: "ready", skills: [skill("alpha")] };
  const fake = fakeCall({
    "skill.set_enabled": () => {
      throw rpcFailure("skill_not_found", "Skill alpha does not exist");
    },
  });
  assert.equal(await setSkillEnabled("alpha", false, fake.call), false);
  assert.equal(skillsView.value.skills[0].enabled, true);
  assert.equal(skillsView.value.error?.code, "skill_not_found");
  assert.equal(skillsView.value.pending.size, 0);
});

Deno.test("skills: a second toggle of the same skill waits for the first", async () => {
  skillsView.value = { ...emptySkills(), status: "ready", skills: [skill("alpha")] };
  let release: () => void = () => {};
  const fake = fakeCall({
    "skill.set_enabled": () =>
      new Promise((resolve) => {
        release = () => resolve({ skill: skill("alpha", false) });
      }),
  });
  const first = setSkillEnabled("alpha", false, fake.call);
  assert.equal(await setSkillEnabled("alpha", true, fake.call), false);
  release();
  assert.equal(await first, true);
  assert.equal(fake.calls.length, 1);
});
