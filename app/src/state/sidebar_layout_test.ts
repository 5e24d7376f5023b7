import assert from "node:assert/strict";
import {
  clampWidth,
  loadLayout,
  saveLayout,
  SIDEBAR_DEFAULT_WIDTH,
  SIDEBAR_MAX_WIDTH,
  SIDEBAR_MIN_WIDTH,
} from "./sidebar_layout.ts";

Deno.test("sidebar layout: widths stay within 220–520 px; junk becomes the default", () => {
  assert.equal(clampWidth(100), SIDEBAR_MIN_WIDTH);
  assert.equal(clampWidth(9999), SIDEBAR_MAX_WIDTH);
  assert.equal(clampWidth(300.4), 300);
  for (const junk of [Number.NaN, Infinity, "300", null, undefined]) {
    assert.equal(clampWidth(junk), SIDEBAR_DEFAULT_WIDTH);
  }
});

Deno.test("sidebar layout: saved and loaded through real Web Storage; bad JSON is ignored", () => {
  sessionStorage.clear();
  assert.deepEqual(loadLayout(sessionStorage), { width: SIDEBAR_DEFAULT_WIDTH, collapsed: false });
  saveLayout(sessionStorage, { width: 400, collapsed: true });
  assert.deepEqual(loadLayout(sessionStorage), { width: 400, collapsed: true });
  sessionStorage.setItem("daedalus.sidebar", "{not json");
  assert.deepEqual(loadLayout(sessionStorage), { width: SIDEBAR_DEFAULT_WIDTH, collapsed: false });
  sessionStorage.setItem("daedalus.sidebar", '{"width":5000,"collapsed":"yes"}');
  assert.deepEqual(loadLayout(sessionStorage), { width: SIDEBAR_MAX_WIDTH, collapsed: false });
  assert.deepEqual(loadLayout(null), { width: SIDEBAR_DEFAULT_WIDTH, collapsed: false });
});
