import assert from "node:assert/strict";
import { parseStoredRecord } from "./_stored_record.ts";

Deno.test("stored record: an object comes back with its fields unchecked", () => {
  assert.deepEqual(parseStoredRecord('{"a":1,"b":[2]}'), { a: 1, b: [2] });
});

Deno.test("stored record: nothing, corrupt text and non-objects read as null", () => {
  for (const text of [null, "", "{not json", "null", "3", '"x"', "[1,2]", "true"]) {
    assert.equal(parseStoredRecord(text), null, `stored ${JSON.stringify(text)}`);
  }
});
