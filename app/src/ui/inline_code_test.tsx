import assert from "node:assert/strict";
import type { VNode } from "preact";
import { withInlineCode } from "./inline_code.tsx";

Deno.test("backticked parts become code; the rest stays text", () => {
  const parts = withInlineCode("Start it with `deno task start` and open `the URL`.");
  assert.equal(parts.length, 5);
  assert.equal(parts[0], "Start it with ");
  assert.equal((parts[1] as VNode).type, "code");
  assert.equal((parts[1] as VNode<{ children: string }>).props.children, "deno task start");
  assert.equal(parts[2], " and open ");
  assert.equal((parts[3] as VNode<{ children: string }>).props.children, "the URL");
  assert.equal(parts[4], ".");
  assert.deepEqual(withInlineCode("no code here"), ["no code here"]);
});
