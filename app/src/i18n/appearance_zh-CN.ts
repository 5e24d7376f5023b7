/**
 * Simplified Chinese strings of the Appearance section, with the keys of `appearance_en`.
 *
 * @module
 */
import type { appearanceEn } from "./appearance_en.ts";

/** The strings, spread into `zhCN`. */
export const appearanceZhCN: Record<keyof typeof appearanceEn, string> = {
  "appearance.title": "外观",
  "appearance.preview": "当前主题预览",
  "appearance.preview.question": "能帮我修好失败的测试吗？",
  "appearance.preview.answer": "好了——比较运算在",
  "appearance.preview.button": "发送",
  "appearance.theme": "主题",
  "appearance.theme.system": "跟随系统",
  "appearance.theme.light": "浅色",
  "appearance.theme.dark": "深色",
  "appearance.colors.light": "颜色（浅色主题）",
  "appearance.colors.dark": "颜色（深色主题）",
  "appearance.color.accent": "强调色",
  "appearance.color.background": "背景色",
  "appearance.color.foreground": "文字色",
  "appearance.reset": "重置",
  "appearance.resetColor": "重置{color}",
  "appearance.lowContrast": "文字与背景的对比度为 {ratio}:1；至少 4.5:1 才便于阅读。",
  "appearance.uiFont": "界面字体",
  "appearance.codeFont": "代码字体",
  "appearance.font.system": "系统默认",
  "appearance.font.inter": "Inter",
  "appearance.font.segoe-ui": "Segoe UI",
  "appearance.font.system-mono": "系统等宽字体",
  "appearance.font.cascadia-code": "Cascadia Code",
  "appearance.font.consolas": "Consolas",
  "appearance.font.custom": "自定义…",
  "appearance.font.customLabel": "{field}：字体列表",
  "appearance.font.hint": '用逗号分隔字体名称，例如："Fira Code", monospace',
  "appearance.font.invalid": "只能填写以逗号分隔的字体名称（字母、数字、空格、- _ .），未应用。",
  "appearance.motion": "减少动态效果",
  "appearance.motion.system": "跟随系统",
  "appearance.motion.on": "开启",
  "appearance.motion.off": "关闭",
};
