import assert from "node:assert/strict";
import type { VNode } from "preact";
import { locale } from "../../i18n/i18n.ts";
import { FailureLine } from "./FailureLine.tsx";

function text(node: unknown): string {
  if (node === null || node === undefined || typeof node === "boolean") return "";
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(text).join("");
  const v = node as VNode<{ children?: unknown }>;
  if (typeof v.type === "function") return text((v.type as (p: unknown) => unknown)(v.props));
  return text(v.props.children);
}

Deno.test("failure line: a known reason code is explained, with the code and message", () => {
  const before = locale.value;
  try {
    locale.value = "en";
    const known = FailureLine({
      failure: { code: "memory_revision_conflict", message: "Revision 2 expected" },
    });
    assert.equal((known.props as { role: string }).role, "alert");
    assert.match(text(known), /changed elsewhere.*Revision 2 expected.*memory_revision_conflict/);
    const unknown = FailureLine({ failure: { code: "brand_new_code", message: "Odd" } });
    assert.match(text(unknown), /That did not work\..*Odd.*brand_new_code/);
    const bare = FailureLine({ failure: { code: null, message: "Network down" } });
    assert.equal(text(bare), "That did not work. Network down");
  } finally {
    locale.value = before;
  }
});
