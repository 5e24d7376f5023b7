import type { branchEn } from "./branch_en.ts";

/** 编辑重发、重新生成与分支切换的简体中文文案，键与 `branchEn` 相同。 */
export const branchZhCN: Record<keyof typeof branchEn, string> = {
  "branch.edit": "编辑",
  "branch.editLabel": "编辑你的消息",
  "branch.save": "保存并发送",
  "branch.cancel": "取消",
  "branch.filesNote": "文件不会回退；请使用“撤销文件更改”",
  "branch.regenerate": "重新生成",
  "branch.switcher": "此消息的各个版本",
  "branch.previous": "上一个版本",
  "branch.next": "下一个版本",
  "branch.position": "{index}/{count}",
};
