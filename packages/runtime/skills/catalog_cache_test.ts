import assert from "node:assert/strict";
import { join } from "node:path";
import { scanSkills, type ScanSkillsOptions } from "./catalog.ts";
import { SkillCatalogCache } from "./catalog_cache.ts";

function skillMd(name: string, description: string): string {
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\nBody.\n`;
}

async function writeSkill(root: string, name: string, description: string) {
  await Deno.mkdir(join(root, name), { recursive: true });
  await Deno.writeTextFile(join(root, name, "SKILL.md"), skillMd(name, description));
}

interface Counted {
  root: string;
  counter: { scans: number };
  cache: SkillCatalogCache;
}

/** A test on a cache over a fresh skills folder (removed afterwards) counting its scans. */
function cacheTest(name: string, fn: (counted: Counted) => Promise<void>) {
  Deno.test(name, async () => {
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "daedalus-skill-cache-" }));
    const counter = { scans: 0 };
    const cache = new SkillCatalogCache(root, (options: ScanSkillsOptions) => {
      counter.scans++;
      return scanSkills(options);
    });
    try {
      await fn({ root, counter, cache });
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
}

const described = async (cache: SkillCatalogCache, disabled: string[] = []) =>
  (await cache.catalog(disabled)).skills.map((s) => `${s.name}=${s.description}:${s.enabled}`);

cacheTest("an unchanged skills folder is not scanned again", async ({ root, counter, cache }) => {
  await writeSkill(root, "pdf-tools", "Fill PDF forms");
  assert.deepEqual(await described(cache), ["pdf-tools=Fill PDF forms:true"]);
  assert.deepEqual(await described(cache), ["pdf-tools=Fill PDF forms:true"]);
  assert.deepEqual(await described(cache), ["pdf-tools=Fill PDF forms:true"]);
  assert.equal(counter.scans, 1);
});

cacheTest(
  "adding, editing and removing a skill is seen by the next use",
  async ({ root, counter, cache }) => {
    await writeSkill(root, "pdf-tools", "Fill PDF forms");
    await cache.catalog();

    await writeSkill(root, "csv", "Clean CSV files");
    assert.deepEqual(await described(cache), [
      "csv=Clean CSV files:true",
      "pdf-tools=Fill PDF forms:true",
    ]);

    await writeSkill(root, "csv", "Clean and merge CSV files");
    assert.deepEqual(await described(cache), [
      "csv=Clean and merge CSV files:true",
      "pdf-tools=Fill PDF forms:true",
    ]);

    await Deno.remove(join(root, "pdf-tools"), { recursive: true });
    assert.deepEqual(await described(cache), ["csv=Clean and merge CSV files:true"]);
    assert.equal(counter.scans, 4);
  },
);

cacheTest(
  "an edit of the same size is seen when the SKILL.md mtime differs",
  async ({ root, cache }) => {
    await writeSkill(root, "csv", "Clean CSV files: aaa");
    const before = (await Deno.stat(join(root, "csv", "SKILL.md"))).mtime!;
    await cache.catalog();
    await writeSkill(root, "csv", "Clean CSV files: bbb");
    await Deno.utime(join(root, "csv", "SKILL.md"), new Date(), before.getTime() / 1000 + 5);
    assert.deepEqual(await described(cache), ["csv=Clean CSV files: bbb:true"]);
  },
);

cacheTest(
  "a SKILL.md added to an invalid folder turns its diagnostic into a skill",
  async ({ root, cache }) => {
    await Deno.mkdir(join(root, "csv"));
    assert.deepEqual((await cache.catalog()).diagnostics.map((d) => d.code), ["missing_skill_md"]);
    await writeSkill(root, "csv", "Clean CSV files");
    const catalog = await cache.catalog();
    assert.deepEqual(catalog.diagnostics, []);
    assert.deepEqual(catalog.skills.map((s) => s.name), ["csv"]);
  },
);

cacheTest(
  "disabled names apply at each use without a rescan, like scanSkills",
  async ({ root, counter, cache }) => {
    await writeSkill(root, "csv", "Clean CSV files");
    await writeSkill(root, "pdf-tools", "Fill PDF forms");
    await Deno.mkdir(join(root, "Bad Name"));
    assert.deepEqual(
      await cache.catalog(["csv"]),
      await scanSkills({ skillsRoot: root, disabled: ["csv"] }),
    );
    assert.deepEqual(await described(cache, ["pdf-tools"]), [
      "csv=Clean CSV files:true",
      "pdf-tools=Fill PDF forms:false",
    ]);
    assert.equal(counter.scans, 1);
  },
);

cacheTest("a missing skills folder is empty, and its creation is seen", async ({ root, cache }) => {
  const missing = join(root, "skills");
  const later = new SkillCatalogCache(missing);
  assert.deepEqual(await later.catalog(), { skills: [], diagnostics: [] });
  await writeSkill(missing, "csv", "Clean CSV files");
  assert.deepEqual((await later.catalog()).skills.map((s) => s.name), ["csv"]);
  assert.deepEqual((await cache.catalog()).skills.map((s) => s.name), []);
});
