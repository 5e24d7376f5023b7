import assert from "node:assert/strict";
import { buildManifest, firstDifference, formatManifest } from "./protocol_manifest.ts";

const checkedIn = new URL("../protocol/runtime-protocol.json", import.meta.url);

Deno.test("the checked-in manifest is what the schemas generate", async () => {
  assert.equal(await Deno.readTextFile(checkedIn), formatManifest(buildManifest()));
});

Deno.test("the manifest lists every method, event, tool and code", () => {
  const manifest = buildManifest() as Record<string, Record<string, unknown>>;
  assert.equal(Object.keys(manifest.methods ?? {}).length, 33);
  assert.equal(Object.keys(manifest.events ?? {}).length, 15);
  assert.equal((manifest.tools as unknown as string[]).length, 21);
  assert.equal(manifest.errors?.memoryOperationFailed, -32020);
});

Deno.test("a stale manifest is reported with the path of the first difference", () => {
  const fresh = buildManifest() as Record<string, Record<string, Record<string, unknown>>>;
  const stale = structuredClone(fresh);
  delete stale.methods?.["thread.get"]?.params;
  assert.equal(
    firstDifference(fresh, stale),
    '$["methods"]["thread.get"]["params"]: missing from the checked-in file',
  );
  const renamed = structuredClone(fresh);
  (renamed.reasonCodes as unknown as Record<string, string[]>).run![0] = "canceled";
  assert.match(
    firstDifference(fresh, renamed) ?? "",
    /reasonCodes.*run.*\[0\].*"cancelled".*"canceled"/,
  );
  assert.equal(firstDifference(fresh, structuredClone(fresh)), null);
});
