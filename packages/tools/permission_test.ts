import assert from "node:assert/strict";
import type { ExecutionPolicy } from "@daedalus/protocol";
import { permissionRefusal } from "./permission.ts";
import type { ToolRisk } from "./tool.ts";

Deno.test("each risk class against each mode: who is refused, in which words", () => {
  const verdict = (risk: ToolRisk, policy: ExecutionPolicy) =>
    permissionRefusal({ id: `a_${risk}`, risk }, policy);
  for (const risk of ["read", "write", "process", "session", "memory"] as const) {
    assert.equal(verdict(risk, "full_access"), null, `full_access runs ${risk}`);
  }
  assert.equal(verdict("read", "read_only"), null);
  assert.equal(verdict("memory", "read_only"), null);
  assert.equal(verdict("write", "workspace_write"), null);
  assert.equal(
    verdict("write", "read_only"),
    "permission_denied: a_write writes, and this run is read_only",
  );
  for (const policy of ["read_only", "workspace_write"] as const) {
    assert.equal(
      verdict("process", policy),
      `permission_denied: process tools need full_access; this run is ${policy}`,
    );
    assert.equal(
      verdict("session", policy),
      `permission_denied: a_session changes sessions and needs full_access; this run is ${policy}`,
    );
  }
});
