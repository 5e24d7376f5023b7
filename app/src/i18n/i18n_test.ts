import assert from "node:assert/strict";
import { en } from "./en.ts";
import { zhCN } from "./zh-CN.ts";
import { inLocale } from "../_testing.ts";
import { LOCALES, pickLocale, t } from "./i18n.ts";

Deno.test("every locale has exactly the keys of en", () => {
  const reference = Object.keys(en).sort();
  for (const [name, table] of Object.entries(LOCALES)) {
    assert.deepEqual(Object.keys(table).sort(), reference, name);
  }
});

Deno.test("no string is empty and placeholders match across locales", () => {
  const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const key of Object.keys(en) as (keyof typeof en)[]) {
    assert.ok(en[key].trim() !== "", key);
    assert.ok(zhCN[key].trim() !== "", key);
    assert.deepEqual(placeholders(zhCN[key]), placeholders(en[key]), key);
  }
});

Deno.test("the browser language picks the locale", () => {
  assert.equal(pickLocale(["zh-CN", "en"]), "zh-CN");
  assert.equal(pickLocale(["zh-TW"]), "zh-CN");
  assert.equal(pickLocale(["en-GB", "zh-CN"]), "en");
  assert.equal(pickLocale(["fr-FR"]), "en");
  assert.equal(pickLocale([]), "en");
});

Deno.test("t fills placeholders in the current locale", () => {
  inLocale("en", () => {
    assert.equal(t("error.generic", { message: "boom" }), "Something went wrong: boom");
  });
  inLocale("zh-CN", () => assert.equal(t("error.generic", { message: "boom" }), "出错了：boom"));
});
