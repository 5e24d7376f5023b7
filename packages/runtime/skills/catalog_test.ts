import assert from "node:assert/strict";
import { join } from "node:path";
import { parseResult } from "@daedalus/protocol";
import { freezeSkillDescriptors, scanSkills } from "./catalog.ts";
import {
  SKILL_DIAGNOSTICS_MAX,
  SKILL_FRONTMATTER_MAX_BYTES,
  SKILL_MD_MAX_BYTES,
} from "./limits.ts";

async function withSkillsRoot(fn: (root: string, dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "daedalus-skills-" });
  const root = join(dir, "skills");
  await Deno.mkdir(root);
  try {
    await fn(await Deno.realPath(root), await Deno.realPath(dir));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function skillMd(name: string, description: string, body = "Do the thing.\n"): string {
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\n${body}`;
}

async function addSkill(root: string, folder: string, content: string | Uint8Array) {
  await Deno.mkdir(join(root, folder), { recursive: true });
  const path = join(root, folder, "SKILL.md");
  if (typeof content === "string") await Deno.writeTextFile(path, content);
  else await Deno.writeFile(path, content);
}

Deno.test("scanSkills lists valid skills by name with enabled from the disabled list", async () => {
  await withSkillsRoot(async (root) => {
    await addSkill(root, "pdf-tools", skillMd("pdf-tools", "Fill and merge PDF forms"));
    await addSkill(root, "0-alpha", skillMd("0-alpha", "  First by name  "));
    await addSkill(
      root,
      "csv",
      "\uFEFF" + skillMd("csv", "Clean CSV files").replaceAll("\n", "\r\n"),
    );
    const catalog = await scanSkills({ skillsRoot: root, disabled: ["csv", "not-there"] });
    assert.deepEqual(catalog.diagnostics, [], "no diagnostics for valid skills");
    assert.deepEqual(catalog.skills, [
      {
        name: "0-alpha",
        description: "First by name",
        location: join(root, "0-alpha", "SKILL.md"),
        enabled: true,
      },
      {
        name: "csv",
        description: "Clean CSV files",
        location: join(root, "csv", "SKILL.md"),
        enabled: false,
      },
      {
        name: "pdf-tools",
        description: "Fill and merge PDF forms",
        location: join(root, "pdf-tools", "SKILL.md"),
        enabled: true,
      },
    ]);
    parseResult("skill.list", catalog);
  });
});

Deno.test("scanSkills: a missing skills folder is an empty catalog", async () => {
  await withSkillsRoot(async (_root, dir) => {
    const catalog = await scanSkills({ skillsRoot: join(dir, "nope") });
    assert.deepEqual(catalog, { skills: [], diagnostics: [] });
  });
});

Deno.test("scanSkills reports each invalid entry and still lists the valid ones", async () => {
  await withSkillsRoot(async (root, dir) => {
    await addSkill(root, "good", skillMd("good", "A good skill"));
    await addSkill(root, "Bad_Name", skillMd("Bad_Name", "Upper case"));
    await Deno.mkdir(join(root, "empty-folder"));
    await Deno.writeTextFile(join(root, "loose-file"), "not a folder");
    await addSkill(root, "big", skillMd("big", "Too big", "x".repeat(SKILL_MD_MAX_BYTES)));
    await addSkill(
      root,
      "latin1",
      new Uint8Array([...new TextEncoder().encode(skillMd("latin1", "Bad bytes")), 0xff, 0xfe]),
    );
    await addSkill(root, "no-fence", "name: no-fence\ndescription: x\n");
    await addSkill(root, "unclosed", "---\nname: unclosed\ndescription: x\n");
    await addSkill(root, "bad-yaml", "---\nname: [bad-yaml\ndescription: x\n---\n");
    await addSkill(root, "list-yaml", "---\n- a\n- b\n---\n");
    await addSkill(root, "no-name", "---\ndescription: x\n---\n");
    await addSkill(
      root,
      "huge-front",
      `---\nname: huge-front\ndescription: x\nnote: ${
        "y".repeat(SKILL_FRONTMATTER_MAX_BYTES)
      }\n---\n`,
    );
    await addSkill(root, "mismatch", skillMd("other-name", "Wrong name"));
    await addSkill(root, "no-description", "---\nname: no-description\n---\n");
    await addSkill(root, "blank-description", skillMd("blank-description", "   "));
    await addSkill(root, "long-description", skillMd("long-description", "d".repeat(1025)));
    await addSkill(root, "max-description", skillMd("max-description", "d".repeat(1024)));
    await addSkill(root, "skill-md-dir", "");
    await Deno.remove(join(root, "skill-md-dir", "SKILL.md"));
    await Deno.mkdir(join(root, "skill-md-dir", "SKILL.md"));
    await Deno.mkdir(join(root, ".hidden"));
    // Symlinks: a linked folder, a linked SKILL.md pointing outside, one pointing inside.
    await addSkill(dir, "outside", skillMd("linked-folder", "Outside"));
    await Deno.symlink(join(dir, "outside"), join(root, "linked-folder"));
    await Deno.mkdir(join(root, "linked-file"));
    await Deno.symlink(join(dir, "outside", "SKILL.md"), join(root, "linked-file", "SKILL.md"));
    await Deno.mkdir(join(root, "linked-inside"));
    await Deno.symlink(join(root, "good", "SKILL.md"), join(root, "linked-inside", "SKILL.md"));

    const catalog = await scanSkills({ skillsRoot: root });
    assert.deepEqual(catalog.skills.map((skill) => skill.name), ["good", "max-description"]);
    const codes = Object.fromEntries(catalog.diagnostics.map((d) => [d.entry, d.code]));
    assert.deepEqual(codes, {
      "Bad_Name": "invalid_name",
      "bad-yaml": "invalid_frontmatter",
      "big": "too_large",
      "blank-description": "missing_description",
      "empty-folder": "missing_skill_md",
      "huge-front": "frontmatter_too_large",
      "latin1": "invalid_utf8",
      "linked-file": "symlink_refused",
      "linked-folder": "symlink_refused",
      "linked-inside": "symlink_refused",
      "list-yaml": "invalid_frontmatter",
      "long-description": "description_too_long",
      "loose-file": "not_a_directory",
      "mismatch": "name_mismatch",
      "no-description": "missing_description",
      "no-fence": "invalid_frontmatter",
      "no-name": "invalid_frontmatter",
      "skill-md-dir": "missing_skill_md",
      "unclosed": "invalid_frontmatter",
    });
    const entries = catalog.diagnostics.map((d) => d.entry);
    assert.deepEqual(entries, [...entries].sort(), "diagnostics are sorted by entry");
    for (const diagnostic of catalog.diagnostics) {
      assert.ok(
        diagnostic.message.length > 0 && !diagnostic.message.endsWith("."),
        diagnostic.message,
      );
    }
    parseResult("skill.list", catalog);
  });
});

Deno.test("scanSkills keeps at most 100 diagnostics and counts the rest", async () => {
  await withSkillsRoot(async (root) => {
    await addSkill(root, "valid", skillMd("valid", "Still listed"));
    for (let i = 0; i < SKILL_DIAGNOSTICS_MAX + 20; i++) {
      await Deno.mkdir(join(root, `empty-${String(i).padStart(3, "0")}`));
    }
    const catalog = await scanSkills({ skillsRoot: root });
    assert.equal(catalog.diagnostics.length, SKILL_DIAGNOSTICS_MAX);
    assert.equal(catalog.diagnostics[0].entry, "empty-000");
    const last = catalog.diagnostics[SKILL_DIAGNOSTICS_MAX - 1];
    assert.equal(last.code, "too_many_diagnostics");
    assert.match(last.message, /^21 more invalid entries/);
    assert.deepEqual(catalog.skills.map((skill) => skill.name), ["valid"]);
  });
});

Deno.test("scanSkills bounds a diagnostic's entry name and strips control characters", async () => {
  await withSkillsRoot(async (root) => {
    const name = "X\u0007" + "y".repeat(250);
    await Deno.mkdir(join(root, name));
    const [diagnostic] = (await scanSkills({ skillsRoot: root })).diagnostics;
    assert.equal(diagnostic.code, "invalid_name");
    assert.ok(diagnostic.entry.length <= 255, `entry is ${diagnostic.entry.length} chars`);
    assert.ok(!diagnostic.entry.includes("\u0007"), "control character kept");
  });
});

Deno.test("scanSkills stops when its signal is aborted", async () => {
  await withSkillsRoot(async (root) => {
    await addSkill(root, "one", skillMd("one", "One"));
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await assert.rejects(scanSkills({ skillsRoot: root, signal: controller.signal }), /stop/);
  });
});

Deno.test("freezeSkillDescriptors keeps enabled skills, frozen, without the enabled flag", () => {
  const frozen = freezeSkillDescriptors([
    { name: "b", description: "B", location: "/s/b/SKILL.md", enabled: true },
    { name: "a", description: "A", location: "/s/a/SKILL.md", enabled: true },
    { name: "off", description: "Off", location: "/s/off/SKILL.md", enabled: false },
  ]);
  assert.deepEqual(frozen, [
    { name: "a", description: "A", location: "/s/a/SKILL.md" },
    { name: "b", description: "B", location: "/s/b/SKILL.md" },
  ]);
  assert.ok(Object.isFrozen(frozen) && frozen.every(Object.isFrozen), "descriptors are frozen");
});
