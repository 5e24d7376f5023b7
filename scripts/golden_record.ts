/**
 * `deno task golden:record`: runs the golden cases (tests/golden/cases.ts) against
 * a live runtime and writes what crossed the wire to protocol/golden-trace.json.
 * Review the diff before committing: the trace is the contract other clients test
 * against.
 *
 * @module
 */
import { validateGoldenTrace } from "@daedalus/protocol";
import { recordLiveCases } from "../tests/golden/live_runtime.ts";

const trace = validateGoldenTrace({ version: 1, cases: await recordLiveCases() });
const url = new URL("../protocol/golden-trace.json", import.meta.url);
await Deno.writeTextFile(url, JSON.stringify(trace, null, 2) + "\n");
console.error(`golden:record: wrote ${trace.cases.length} cases to ${url.pathname}`);
