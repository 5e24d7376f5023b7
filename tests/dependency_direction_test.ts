/**
 * The package boundaries of DESIGN.md, checked on the source: storage and tools
 * import only protocol; runtime imports protocol, storage and tools; client imports
 * only protocol; the app imports only the client (and protocol types). Nothing
 * reaches into another package's files instead of its `mod.ts`.
 */
import assert from "node:assert/strict";

const root = new URL("../", import.meta.url);

/**
 * Files allowed one more package than their own may import, and why. `daedalus run`
 * attached to a running runtime is that runtime's client: it speaks the protocol through
 * @daedalus/client (which imports only protocol, so there is no cycle) rather than a
 * second, hand-written WebSocket client.
 */
const EXCEPTIONS: Record<string, string[]> = {
  "packages/runtime/cli/attached_session.ts": ["client"],
};

const ALLOWED: Record<string, string[]> = {
  protocol: [],
  storage: ["protocol"],
  tools: ["protocol"],
  runtime: ["protocol", "storage", "tools"],
  client: ["protocol"],
  app: ["client", "protocol"],
};

async function* sourceFiles(dir: URL): AsyncGenerator<URL> {
  for await (const entry of Deno.readDir(dir)) {
    if (entry.name === "node_modules" || entry.name === "dist") continue;
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory) yield* sourceFiles(url);
    else if (/\.(ts|tsx)$/.test(entry.name)) yield url;
  }
}

const IMPORT =
  /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

Deno.test("each package imports only the packages it may, through their mod.ts", async () => {
  const problems: string[] = [];
  for (const [name, allowed] of Object.entries(ALLOWED)) {
    const dir = new URL(name === "app" ? "app/" : `packages/${name}/`, root);
    for await (const file of sourceFiles(dir)) {
      const text = await Deno.readTextFile(file);
      for (const match of text.matchAll(IMPORT)) {
        const specifier = match[1] ?? match[2] ?? "";
        const relative = file.pathname.slice(root.pathname.length);
        const scoped = /^@daedalus\/([a-z]+)/.exec(specifier);
        const also = EXCEPTIONS[relative] ?? [];
        if (
          scoped && scoped[1] !== name && !allowed.includes(scoped[1] ?? "") &&
          !also.includes(scoped[1] ?? "")
        ) {
          problems.push(`${relative} imports ${specifier}`);
        }
        if (specifier.startsWith(".")) {
          const target = new URL(specifier, file).pathname;
          if (!target.startsWith(dir.pathname)) {
            problems.push(`${relative} reaches into ${specifier}`);
          }
        }
      }
    }
  }
  assert.deepEqual(problems, [], `boundary violations:\n${problems.join("\n")}`);
});

Deno.test("every package has name, version, license, exports, a documented mod.ts and a README", async () => {
  for (const name of Object.keys(ALLOWED)) {
    const dir = new URL(name === "app" ? "app/" : `packages/${name}/`, root);
    const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", dir)));
    assert.equal(config.name, `@daedalus/${name}`);
    assert.match(config.version, /^\d+\.\d+\.\d+$/);
    assert.equal(config.license, "MIT");
    // One entry, or several with "." the package's mod.ts (runtime's light create-server).
    const main = typeof config.exports === "string" ? config.exports : config.exports?.["."];
    assert.equal(main, "./mod.ts", `${name}'s main export`);
    assert.match(await Deno.readTextFile(new URL("mod.ts", dir)), /@module/, `${name}/mod.ts`);
    assert.match(await Deno.readTextFile(new URL("README.md", dir)), /Must not import/, name);
  }
});
