/**
 * `deno task protocol:generate` writes `protocol/runtime-protocol.json`;
 * `deno task protocol:check` (`--check`) fails, naming the first difference, when the
 * checked-in file is stale. It also validates `protocol/golden-trace.json`.
 *
 * @module
 */
import { validateGoldenTrace } from "@daedalus/protocol";
import { buildManifest, firstDifference, formatManifest } from "./protocol_manifest.ts";

const manifestUrl = new URL("../protocol/runtime-protocol.json", import.meta.url);
const traceUrl = new URL("../protocol/golden-trace.json", import.meta.url);

const manifest = buildManifest();
const text = formatManifest(manifest);

if (Deno.args.includes("--check")) {
  let current: string;
  try {
    current = await Deno.readTextFile(manifestUrl);
  } catch (error) {
    console.error(`protocol:check: cannot read ${manifestUrl.pathname}: ${error}`);
    Deno.exit(1);
  }
  if (current !== text) {
    const difference = firstDifference(manifest, JSON.parse(current)) ??
      "formatting differs";
    console.error(
      `protocol:check: protocol/runtime-protocol.json is stale (${difference}); ` +
        "run `deno task protocol:generate`",
    );
    Deno.exit(1);
  }
  validateGoldenTrace(JSON.parse(await Deno.readTextFile(traceUrl)));
  console.error("protocol:check: runtime-protocol.json is current; golden-trace.json is valid");
} else {
  await Deno.writeTextFile(manifestUrl, text);
  console.error(`protocol:generate: wrote ${manifestUrl.pathname}`);
}
