import type { filesEn } from "./files_en.ts";

/** 文件面板的简体中文文本。 */
export const filesZhCN: Record<keyof typeof filesEn, string> = {
  "file.open": "打开文件",
  "file.openPath": "打开 {path}",
  "file.panel": "文件预览",
  "file.close": "关闭",
  "file.mention": "在消息中引用",
  "file.loading": "正在加载…",
  "file.more": "显示更多行",
  "file.reload": "从头重新加载",
  "file.lines": "第 {from}–{to} 行",
  "file.empty": "文件为空。",
  "file.end": "文件结尾",
  "file.truncated": "本页提前结束（{reason}）。",
  "file.encoding": "编码 {encoding}",
};
