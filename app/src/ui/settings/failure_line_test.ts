import assert from "node:assert/strict";
import { inEnglish, renderedText as text } from "../../_testing.ts";
import { FailureLine } from "./FailureLine.tsx";

Deno.test("failure line: a known reason code is explained, with the code and message", () => {
  inEnglish(() => {
    const known = FailureLine({
      failure: { code: "memory_revision_conflict", message: "Revision 2 expected" },
    });
    assert.equal((known.props as { role: string }).role, "alert");
    assert.match(text(known), /changed elsewhere.*Revision 2 expected.*memory_revision_conflict/);
    const unknown = FailureLine({ failure: { code: "brand_new_code", message: "Odd" } });
    assert.match(text(unknown), /That did not work\..*Odd.*brand_new_code/);
    const bare = FailureLine({ failure: { code: null, message: "Network down" } });
    assert.equal(text(bare), "That did not work. Network down");
  });
});
