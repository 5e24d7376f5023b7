import assert from "node:assert/strict";
import { join } from "node:path";
import { missingFiles, publishedFiles, unpublishableFiles } from "./publish_check.ts";

const SCRIPT = new URL("./publish_check.ts", import.meta.url).pathname;

Deno.test("publishedFiles reads the dry run's file lines, relative to the package", () => {
  const output = [
    "Check mod.ts",
    "Checking for slow types in the public API...",
    "Simulating publish of @daedalus/pub@0.1.0 with files:",
    "   file:///p/pkg/README.md (5.44KB)",
    "   file:///p/pkg/deno.json (100B)",
    "   file:///p/pkg/state/reads/x.ts (1.2MB)",
    "   file:///p/pkg/with%20space.ts (3B)",
    "Success Dry run complete",
    "file:///p/pkg/not_listed.ts",
  ].join("\n");
  assert.deepEqual(
    publishedFiles(output, "/p/pkg"),
    ["README.md", "deno.json", "state/reads/x.ts", "with space.ts"],
    "each listed file, package-relative, decoded, in order; other lines ignored",
  );
  assert.deepEqual(publishedFiles("Success Dry run complete\r\n", "/p/pkg"), []);
});

Deno.test("unpublishableFiles names tests, benches, test helpers and fixtures only", () => {
  const cases: [file: string, unpublishable: boolean][] = [
    ["mod_test.ts", true],
    ["state/journal_test.ts", true],
    ["app/view_test.tsx", true],
    ["gateway/gateway_bench.ts", true],
    ["_test_clock.ts", true],
    ["server/_test_fakes.ts", true],
    ["_testing.ts", true],
    ["state/reads/_fixtures.ts", true],
    ["state/_search_fixture.ts", true],
    ["testdata/config_writer.ts", true],
    ["mcp/testdata/server.mjs", true],
    ["mod.ts", false],
    ["latest.ts", false],
    ["testdata.ts", false],
    ["attest.ts", false],
    ["test_plan.md", false],
    ["tools/testing.ts", false],
    ["tools/files/read.md", false],
    ["README.md", false],
    ["benchmarks.ts", false],
  ];
  for (const [file, expected] of cases) {
    assert.equal(
      unpublishableFiles([file]).length === 1,
      expected,
      `${file} should ${expected ? "" : "not "}be flagged as a test file`,
    );
  }
  assert.deepEqual(unpublishableFiles(["a.ts", "a_test.ts", "b.ts", "b_bench.ts"]), [
    "a_test.ts",
    "b_bench.ts",
  ]);
});

Deno.test("missingFiles names each of deno.json, mod.ts and README.md a listing lacks", () => {
  const cases: [files: string[], missing: string[]][] = [
    [["deno.json", "mod.ts", "README.md", "x.ts"], []],
    [["deno.json", "mod.ts"], ["README.md"]],
    [["x/README.md", "x/mod.ts"], ["deno.json", "mod.ts", "README.md"]],
    [[], ["deno.json", "mod.ts", "README.md"]],
  ];
  for (const [files, missing] of cases) {
    assert.deepEqual(missingFiles(files), missing, `missing files of ${JSON.stringify(files)}`);
  }
});

async function writePackage(dir: string, config: Record<string, unknown>, modTs: string) {
  await Deno.writeTextFile(
    join(dir, "deno.json"),
    JSON.stringify({ name: "@daedalus/pub", version: "0.1.0", license: "MIT", ...config }),
  );
  await Deno.writeTextFile(join(dir, "mod.ts"), modTs);
  await Deno.writeTextFile(join(dir, "README.md"), "# pub\n");
  await Deno.writeTextFile(join(dir, "mod_test.ts"), 'import "./mod.ts";\n');
}

async function runCheck(dir: string): Promise<{ code: number; stderr: string }> {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-run", "--allow-read", "--allow-env", SCRIPT, dir],
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code, stderr: new TextDecoder().decode(stderr) };
}

const GOOD_MOD = [
  "/**",
  " * A package.",
  " *",
  " * @module",
  " */",
  "",
  "/** Adds one. */",
  "export function addOne(value: number): number {",
  "  return value + 1;",
  "}",
  "",
].join("\n");

Deno.test("the check fails on a published test file and on slow types, passes when clean", async () => {
  const dir = await Deno.makeTempDir({ prefix: "daedalus-publish-check-" });
  try {
    await writePackage(dir, { exports: "./mod.ts" }, GOOD_MOD);
    const leaky = await runCheck(dir);
    assert.equal(leaky.code, 1, `a package shipping mod_test.ts must fail:\n${leaky.stderr}`);
    assert.match(leaky.stderr, /mod_test\.ts is a test file; add it to publish\.exclude/);

    const excluded = { exports: "./mod.ts", publish: { exclude: ["**/*_test.ts"] } };
    await writePackage(dir, excluded, GOOD_MOD.replace("): number {", ") {"));
    const slow = await runCheck(dir);
    assert.equal(slow.code, 1, `a missing return type must fail:\n${slow.stderr}`);
    assert.match(slow.stderr, /missing-explicit-return-type/);

    await writePackage(dir, excluded, GOOD_MOD);
    const clean = await runCheck(dir);
    assert.equal(clean.code, 0, `the clean package must pass:\n${clean.stderr}`);
    assert.match(clean.stderr, /1 packages clean/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
