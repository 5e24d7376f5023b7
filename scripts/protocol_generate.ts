/**
 * `deno task protocol:generate` writes `protocol/runtime-protocol.json` and
 * `packages/protocol/types.gen.ts`; `deno task protocol:check` (`--check`) fails, naming
 * the first difference, when either checked-in file is stale. It also validates
 * `protocol/golden-trace.json`.
 *
 * @module
 */
import { validateGoldenTrace } from "@daedalus/protocol";
import { firstDifference, formatManifest, runtimeProtocolManifest } from "./protocol_manifest.ts";
import { describeTypesDifference, renderTypes, TYPES_PATH } from "./protocol_types.ts";

const root = new URL("../", import.meta.url);
const manifestUrl = new URL("protocol/runtime-protocol.json", root);
const typesUrl = new URL(TYPES_PATH, root);
const traceUrl = new URL("protocol/golden-trace.json", root);

const manifest = runtimeProtocolManifest();
const manifestText = formatManifest(manifest);
const typesText = renderTypes();

if (Deno.args.includes("--check")) {
  const stale: string[] = [];
  const currentManifest = await readOrExit(manifestUrl);
  if (currentManifest !== manifestText) {
    const difference = firstDifference(manifest, JSON.parse(currentManifest)) ??
      "formatting differs";
    stale.push(`protocol/runtime-protocol.json is stale (${difference})`);
  }
  const currentTypes = await readOrExit(typesUrl);
  const typesDifference = describeTypesDifference(typesText, currentTypes);
  if (typesDifference) stale.push(`${TYPES_PATH} is stale (${typesDifference})`);
  if (stale.length > 0) {
    for (const problem of stale) console.error(`protocol:check: ${problem}`);
    console.error("protocol:check: run `deno task protocol:generate`");
    Deno.exit(1);
  }
  validateGoldenTrace(JSON.parse(await Deno.readTextFile(traceUrl)));
  console.error(
    `protocol:check: runtime-protocol.json and ${TYPES_PATH} are current; ` +
      "golden-trace.json is valid",
  );
} else {
  await writeOrExit(manifestUrl, manifestText);
  await writeOrExit(typesUrl, typesText);
}

async function readOrExit(url: URL): Promise<string> {
  try {
    return await Deno.readTextFile(url);
  } catch (error) {
    console.error(`protocol:check: cannot read ${url.pathname}: ${error}`);
    Deno.exit(1);
  }
}

async function writeOrExit(url: URL, text: string): Promise<void> {
  try {
    await Deno.writeTextFile(url, text);
  } catch (error) {
    const hint = error instanceof Deno.errors.NotCapable
      ? ` (the task needs --allow-write=protocol,${TYPES_PATH})`
      : "";
    console.error(`protocol:generate: cannot write ${url.pathname}: ${error}${hint}`);
    Deno.exit(1);
  }
  console.error(`protocol:generate: wrote ${url.pathname}`);
}
