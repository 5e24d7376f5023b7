/**
 * The appearance preferences as plain values: their shape, defaults, validation of what
 * localStorage holds (anything corrupt falls back to the default, field by field) and the
 * CSS custom properties they produce. No DOM here; `appearance.ts` applies them.
 *
 * @module
 */
import { parseStoredRecord } from "./_stored_record.ts";

/** The colour mode; `system` follows `prefers-color-scheme`. */
export type ThemeMode = "system" | "light" | "dark";
/** A palette actually shown. */
export type Palette = "light" | "dark";
/** Reduced motion; `system` follows `prefers-reduced-motion`. */
export type MotionMode = "system" | "on" | "off";
/** The colours a user may override, per palette. */
export type ColorName = "accent" | "background" | "foreground";
/** Overrides of one palette; a missing colour uses the palette's own. */
export type PaletteColors = Partial<Record<ColorName, string>>;

/** Everything the Appearance section sets. */
export interface Appearance {
  /** The colour mode. */
  theme: ThemeMode;
  /** Each palette keeps its own overrides (seed 000 §5: both themes have colours). */
  colors: Record<Palette, PaletteColors>;
  /** A preset id (`UI_FONTS`) or a validated font-family list. */
  uiFont: string;
  /** A preset id (`CODE_FONTS`) or a validated font-family list. */
  codeFont: string;
  /** Whether transitions and animations are turned off. */
  reducedMotion: MotionMode;
}

/** The theme modes in the order they are offered. */
export const THEME_MODES: readonly ThemeMode[] = ["system", "light", "dark"];
/** The reduced-motion modes in the order they are offered. */
export const MOTION_MODES: readonly MotionMode[] = ["system", "on", "off"];
/** The overridable colours in the order they are offered. */
export const COLOR_NAMES: readonly ColorName[] = ["accent", "background", "foreground"];

/** UI font presets: id → font-family list. */
export const UI_FONTS = {
  system: 'system-ui, -apple-system, "Segoe UI", "PingFang SC", "Microsoft YaHei", sans-serif',
  inter: 'Inter, system-ui, "PingFang SC", "Microsoft YaHei", sans-serif',
  "segoe-ui": '"Segoe UI", system-ui, "PingFang SC", "Microsoft YaHei", sans-serif',
} as const satisfies Record<string, string>;

/** Code font presets: id → font-family list. */
export const CODE_FONTS = {
  "system-mono": 'ui-monospace, "SF Mono", Menlo, "DejaVu Sans Mono", monospace',
  "cascadia-code": '"Cascadia Code", "Cascadia Mono", ui-monospace, monospace',
  consolas: "Consolas, ui-monospace, monospace",
} as const satisfies Record<string, string>;

/** The palettes' own colours (kept in step with `styles.css`). */
export const PALETTE_COLORS: Record<Palette, Record<ColorName, string>> = {
  light: { accent: "#0369a1", background: "#ffffff", foreground: "#1e293b" },
  dark: { accent: "#7dd3fc", background: "#0f172a", foreground: "#e2e8f0" },
};

/** The CSS custom property each colour sets. */
export const COLOR_VARIABLES: Record<ColorName, string> = {
  accent: "--accent",
  background: "--bg",
  foreground: "--fg",
};

/** A custom font list's most characters (a sane list is far shorter). */
export const FONT_LIST_MAX_CHARS = 300;
/** A custom font list's most families. */
export const FONT_LIST_MAX_FAMILIES = 10;

/** @returns the defaults: follow the system, no overrides, the system fonts */
export function defaultAppearance(): Appearance {
  return {
    theme: "system",
    colors: { light: {}, dark: {} },
    uiFont: "system",
    codeFont: "system-mono",
    reducedMotion: "system",
  };
}

const HEX_COLOR = /^#[0-9a-f]{6}$/;
// One family: letters (any script), digits, spaces, '-', '_' and '.'; quoted or not.
const FAMILY_NAME = /^[\p{L}\p{N} _.-]{1,64}$/u;

/**
 * Validates a colour as `<input type=color>` gives it.
 *
 * @param value anything
 * @returns `#rrggbb` in lower case, or null when it is not one
 */
export function parseColor(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const lower = value.trim().toLowerCase();
  return HEX_COLOR.test(lower) ? lower : null;
}

/**
 * Validates a free-text font-family list so it can go into a CSS custom property: only
 * comma-separated family names (quoted or bare), nothing that could end the declaration
 * or load anything (`;`, `{`, `url(`, backslashes).
 *
 * @param value the text the user typed
 * @returns the list normalised (names with spaces quoted), or null when it is not safe
 * @example parseFontList("Fira Code, monospace") // '"Fira Code", monospace'
 */
export function parseFontList(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (text === "" || text.length > FONT_LIST_MAX_CHARS) return null;
  const families = text.split(",").map((part) => part.trim());
  if (families.length > FONT_LIST_MAX_FAMILIES) return null;
  const out: string[] = [];
  for (const family of families) {
    const quoted = /^(["'])(.*)\1$/.exec(family);
    const name = (quoted ? quoted[2]! : family).trim().replace(/\s+/g, " ");
    if (!FAMILY_NAME.test(name)) return null;
    out.push(/^[A-Za-z][A-Za-z0-9-]*$/.test(name) ? name : `"${name}"`);
  }
  return out.join(", ");
}

/**
 * Resolves a font choice to a font-family list.
 *
 * @param choice a preset id or a custom list
 * @param presets the preset table
 * @param fallback the preset id used when the choice is neither
 * @returns the list to put into CSS
 */
export function fontFamily(
  choice: string,
  presets: Record<string, string>,
  fallback: string,
): string {
  if (Object.hasOwn(presets, choice)) return presets[choice]!;
  return parseFontList(choice) ?? presets[fallback]!;
}

function parseFont(value: unknown, presets: Record<string, string>, fallback: string): string {
  if (typeof value === "string" && Object.hasOwn(presets, value)) return value;
  return parseFontList(value) ?? fallback;
}

function parsePaletteColors(value: unknown): PaletteColors {
  if (typeof value !== "object" || value === null) return {};
  const colors: PaletteColors = {};
  for (const name of COLOR_NAMES) {
    const color = parseColor((value as Record<string, unknown>)[name]);
    if (color) colors[name] = color;
  }
  return colors;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return allowed.includes(value as T) ? value as T : fallback;
}

/**
 * Reads stored appearance text. Never throws: unreadable JSON gives the defaults and
 * each invalid field falls back to its default on its own.
 *
 * @param text what localStorage held (null when nothing)
 * @returns valid preferences
 */
export function parseAppearance(text: string | null): Appearance {
  const defaults = defaultAppearance();
  const stored = parseStoredRecord(text);
  if (stored === null) return defaults;
  const colors = typeof stored.colors === "object" && stored.colors !== null
    ? stored.colors as Record<string, unknown>
    : {};
  return {
    theme: oneOf(stored.theme, THEME_MODES, defaults.theme),
    colors: { light: parsePaletteColors(colors.light), dark: parsePaletteColors(colors.dark) },
    uiFont: parseFont(stored.uiFont, UI_FONTS, defaults.uiFont),
    codeFont: parseFont(stored.codeFont, CODE_FONTS, defaults.codeFont),
    reducedMotion: oneOf(stored.reducedMotion, MOTION_MODES, defaults.reducedMotion),
  };
}

/**
 * The palette shown for a mode.
 *
 * @param theme the mode
 * @param systemDark whether the system prefers dark
 * @returns the palette
 */
export function resolvePalette(theme: ThemeMode, systemDark: boolean): Palette {
  if (theme === "system") return systemDark ? "dark" : "light";
  return theme;
}

/**
 * The custom properties to set on the document element; an absent override maps to
 * null so the stylesheet's palette value applies again.
 *
 * @param appearance the preferences
 * @param palette the palette shown
 * @returns property → value (null: remove it)
 */
export function cssVariables(
  appearance: Appearance,
  palette: Palette,
): Record<string, string | null> {
  const variables: Record<string, string | null> = {
    "--font-ui": fontFamily(appearance.uiFont, UI_FONTS, "system"),
    "--font-code": fontFamily(appearance.codeFont, CODE_FONTS, "system-mono"),
  };
  for (const name of COLOR_NAMES) {
    variables[COLOR_VARIABLES[name]] = appearance.colors[palette][name] ?? null;
  }
  return variables;
}

/** WCAG's minimum contrast for normal text. */
export const MIN_TEXT_CONTRAST = 4.5;

function luminance(hex: string): number {
  const channels = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16) / 255)
    .map((c) => c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * channels[0]! + 0.7152 * channels[1]! + 0.0722 * channels[2]!;
}

/**
 * The WCAG 2 contrast ratio of two `#rrggbb` colours (1 to 21).
 *
 * @param a one colour
 * @param b the other
 * @returns the ratio
 */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}
