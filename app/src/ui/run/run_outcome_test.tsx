import assert from "node:assert/strict";
import type { VNode } from "preact";
import { locale } from "../../i18n/i18n.ts";
import { RunOutcome } from "./RunOutcome.tsx";

function text(node: unknown): string {
  if (node === null || node === undefined || typeof node === "boolean") return "";
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(text).join("");
  const v = node as VNode<{ children?: unknown }>;
  if (typeof v.type === "function") return text((v.type as (p: unknown) => unknown)(v.props));
  return text(v.props.children);
}

Deno.test("run outcome: completed shows nothing; failed/cancelled explain and show the code", () => {
  const before = locale.value;
  try {
    locale.value = "en";
    assert.equal(RunOutcome({ run: { status: "completed", reasonCode: null } }), null);
    const failed = RunOutcome({ run: { status: "failed", reasonCode: "provider_rate_limit" } })!;
    assert.equal((failed.props as { role: string }).role, "alert");
    assert.match(text(failed), /The run failed.*rate-limiting.*provider_rate_limit/);
    const cancelled = RunOutcome({ run: { status: "cancelled", reasonCode: "cancelled" } })!;
    assert.equal((cancelled.props as { role: string }).role, "status");
    locale.value = "zh-CN";
    const zh = RunOutcome({ run: { status: "cancelled", reasonCode: "cancelled" } });
    assert.match(text(zh), /运行已停止.*cancelled/);
    const unknown = RunOutcome({ run: { status: "failed", reasonCode: null } })!;
    assert.match(text(unknown), /没有记录原因/);
  } finally {
    locale.value = before;
  }
});
