import assert from "node:assert/strict";
import {
  ERROR_REASON_CODES,
  FILE_UNAVAILABLE_REASONS,
  PROCESS_ERROR_CODES,
  RUN_REASON_CODES,
} from "@daedalus/protocol";
import { inEnglish, inLocale } from "../_testing.ts";
import { LOCALES } from "./i18n.ts";
import { explainReason, type ReasonGroup, reasonKey } from "./reasons.ts";

const GROUPS: Record<ReasonGroup, readonly string[]> = {
  run: RUN_REASON_CODES,
  error: ERROR_REASON_CODES,
  file: FILE_UNAVAILABLE_REASONS,
  process: PROCESS_ERROR_CODES,
};

Deno.test("every protocol reason code has copy in every locale", () => {
  const missing: string[] = [];
  for (const [group, codes] of Object.entries(GROUPS)) {
    for (const code of codes) {
      const key = `reason.${group}.${code}`;
      for (const [name, table] of Object.entries(LOCALES)) {
        const text = (table as Record<string, string>)[key];
        if (typeof text !== "string" || text.trim() === "") missing.push(`${name}: ${key}`);
      }
    }
  }
  assert.deepEqual(missing, [], `reason codes without copy:\n${missing.join("\n")}`);
});

Deno.test("no reason copy is kept for a code the protocol does not have", () => {
  const known = new Set(
    Object.entries(GROUPS).flatMap(([group, codes]) => codes.map((c) => `reason.${group}.${c}`)),
  );
  const stale = Object.keys(LOCALES.en).filter((k) => k.startsWith("reason.") && !known.has(k));
  assert.deepEqual(stale, []);
});

Deno.test("explainReason localizes and falls back for unknown codes", () => {
  inEnglish(() => {
    assert.match(explainReason("run", "provider_rate_limit"), /rate-limiting/);
    assert.equal(reasonKey("run", "no_such_code"), null);
    assert.equal(explainReason("run", "no_such_code"), "Unrecognized reason.");
    assert.equal(reasonKey("run", "toString"), null);
  });
  inLocale("zh-CN", () => assert.match(explainReason("file", "binary_file"), /二进制/));
});
