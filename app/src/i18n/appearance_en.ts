/**
 * English strings of the Appearance section (theme, colours, fonts, motion).
 *
 * @module
 */
/** The strings, spread into `en`. */
export const appearanceEn = {
  "appearance.title": "Appearance",
  "appearance.preview": "Preview of the current theme",
  "appearance.preview.question": "Can you fix the failing test?",
  "appearance.preview.answer": "Done — the comparison in",
  "appearance.preview.button": "Send",
  "appearance.theme": "Theme",
  "appearance.theme.system": "System",
  "appearance.theme.light": "Light",
  "appearance.theme.dark": "Dark",
  "appearance.colors.light": "Colours (light theme)",
  "appearance.colors.dark": "Colours (dark theme)",
  "appearance.color.accent": "Accent",
  "appearance.color.background": "Background",
  "appearance.color.foreground": "Text",
  "appearance.reset": "Reset",
  "appearance.resetColor": "Reset {color}",
  "appearance.lowContrast":
    "Text and background contrast is {ratio}:1; at least 4.5:1 keeps text readable.",
  "appearance.uiFont": "Interface font",
  "appearance.codeFont": "Code font",
  "appearance.font.system": "System",
  "appearance.font.inter": "Inter",
  "appearance.font.segoe-ui": "Segoe UI",
  "appearance.font.system-mono": "System monospace",
  "appearance.font.cascadia-code": "Cascadia Code",
  "appearance.font.consolas": "Consolas",
  "appearance.font.custom": "Custom…",
  "appearance.font.customLabel": "{field}: font list",
  "appearance.font.hint": 'Font names separated by commas, for example: "Fira Code", monospace',
  "appearance.font.invalid":
    "Only font names separated by commas (letters, digits, spaces, - _ .); not applied.",
  "appearance.motion": "Reduce motion",
  "appearance.motion.system": "Like the system",
  "appearance.motion.on": "On",
  "appearance.motion.off": "Off",
} as const;
