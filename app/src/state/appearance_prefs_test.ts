import assert from "node:assert/strict";
import {
  CODE_FONTS,
  contrastRatio,
  cssVariables,
  defaultAppearance,
  PALETTE_COLORS,
  parseAppearance,
  parseColor,
  parseFontList,
  resolvePalette,
  UI_FONTS,
} from "./appearance_prefs.ts";

Deno.test("appearance: nothing stored, corrupt JSON or a wrong shape give the defaults", () => {
  for (const text of [null, "", "{", "null", "42", '"dark"', "[1,2]"]) {
    assert.deepEqual(parseAppearance(text), defaultAppearance(), String(text));
  }
});

Deno.test("appearance: a stored choice round-trips through JSON", () => {
  const chosen = {
    theme: "light" as const,
    colors: {
      light: { accent: "#ff0000", background: "#fafafa" },
      dark: { foreground: "#eeeeee" },
    },
    uiFont: "inter",
    codeFont: '"Fira Code", monospace',
    reducedMotion: "on" as const,
  };
  assert.deepEqual(parseAppearance(JSON.stringify(chosen)), chosen);
});

Deno.test("appearance: each invalid field falls back on its own", () => {
  const parsed = parseAppearance(JSON.stringify({
    theme: "sepia",
    colors: { light: { accent: "red", background: "#12345", foreground: "#ABCDEF" }, dark: 7 },
    uiFont: "x; } body { display: none",
    codeFont: "consolas",
    reducedMotion: true,
  }));
  assert.deepEqual(parsed, {
    theme: "system",
    colors: { light: { foreground: "#abcdef" }, dark: {} },
    uiFont: "system",
    codeFont: "consolas",
    reducedMotion: "system",
  });
});

Deno.test("appearance: colours must be #rrggbb", () => {
  assert.equal(parseColor("#A0b1C2"), "#a0b1c2");
  for (const bad of ["#abc", "rgb(0,0,0)", "#gggggg", "", 3, null, "#0000001"]) {
    assert.equal(parseColor(bad), null, String(bad));
  }
});

Deno.test("appearance: a free font list is normalised or refused when unsafe", () => {
  assert.equal(parseFontList("Fira Code, monospace"), '"Fira Code", monospace');
  assert.equal(parseFontList(" 'JetBrains  Mono' ,ui-monospace"), '"JetBrains Mono", ui-monospace');
  assert.equal(parseFontList("霞鹜文楷, sans-serif"), '"霞鹜文楷", sans-serif');
  for (
    const bad of [
      "",
      "   ",
      "a;b",
      "x} body{",
      'Arial", url(http://x)',
      "url(x)",
      "a\\62 c",
      "Arial,,serif",
      "a,".repeat(11) + "b",
      "x".repeat(301),
      42,
    ]
  ) {
    assert.equal(parseFontList(bad), null, String(bad));
  }
});

Deno.test("appearance: system follows the OS; light and dark are fixed", () => {
  assert.equal(resolvePalette("system", true), "dark");
  assert.equal(resolvePalette("system", false), "light");
  assert.equal(resolvePalette("light", true), "light");
  assert.equal(resolvePalette("dark", false), "dark");
});

Deno.test("appearance: CSS variables carry the fonts and only the shown palette's overrides", () => {
  const prefs = {
    ...defaultAppearance(),
    colors: { light: { accent: "#112233" }, dark: { background: "#000000" } },
    codeFont: "Iosevka",
  };
  assert.deepEqual(cssVariables(prefs, "light"), {
    "--font-ui": UI_FONTS.system,
    "--font-code": "Iosevka",
    "--accent": "#112233",
    "--bg": null,
    "--fg": null,
  });
  const dark = cssVariables(prefs, "dark");
  assert.equal(dark["--bg"], "#000000");
  assert.equal(dark["--accent"], null);
  assert.equal(cssVariables(defaultAppearance(), "dark")["--font-code"], CODE_FONTS["system-mono"]);
});

Deno.test("appearance: both palettes' text passes 4.5:1 and the ratio is symmetric", () => {
  for (const palette of ["light", "dark"] as const) {
    const { foreground, background, accent } = PALETTE_COLORS[palette];
    assert.ok(contrastRatio(foreground, background) >= 4.5, `${palette} text`);
    assert.ok(contrastRatio(accent, background) >= 4.5, `${palette} accent`);
  }
  assert.equal(contrastRatio("#000000", "#ffffff"), 21);
  assert.equal(contrastRatio("#ffffff", "#000000"), 21);
  assert.equal(contrastRatio("#777777", "#777777"), 1);
});
