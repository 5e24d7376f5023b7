import type { revertEn } from "./revert_en.ts";

/** “撤销文件更改”的简体中文文本。 */
export const revertZhCN: Record<keyof typeof revertEn, string> = {
  "revert.open": "撤销文件更改",
  "revert.title": "撤销本轮的文件更改",
  "revert.titleRedo": "重做本轮的文件更改",
  "revert.close": "关闭",
  "revert.loading": "正在检查文件…",
  "revert.none": "本轮没有更改任何文件。",
  "revert.files": "文件",
  "revert.outcome.reverted": "将被恢复",
  "revert.outcome.conflict": "在本轮之后已被修改",
  "revert.outcome.not_revertible": "无法恢复（未保留副本）",
  "revert.outcome.unchanged": "已是原样",
  "revert.restored": "已恢复",
  "revert.overwritten": "之后的修改已被覆盖",
  "revert.conflicts": "有 {count} 个文件在本轮之后被修改过。仍然撤销会覆盖这些修改。",
  "revert.confirm": "撤销文件更改",
  "revert.force": "仍然撤销",
  "revert.done": "文件已恢复。",
  "revert.nothing": "没有任何更改。",
};
