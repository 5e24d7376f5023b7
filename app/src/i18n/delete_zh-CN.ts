import type { deleteEn } from "./delete_en.ts";

/** “删除会话”的简体中文文本。 */
export const deleteZhCN: Record<keyof typeof deleteEn, string> = {
  "delete.menu": "删除…",
  "delete.title": "删除“{title}”？",
  "delete.erases":
    "此会话及其在 Daedalus 中的历史将被清除：本会话的所有消息、工具结果和运行记录，以及 Daedalus 为它保存的文件（工具输出、进程日志、其他会话未使用的附件）。此操作无法撤销。",
  "delete.stays": "工作区中的文件不会被改动。记忆会保留。",
  "delete.memories": "查看记忆",
  "delete.busy": "此会话有正在进行的运行。请先停止它，再删除会话。",
  "delete.close": "关闭",
  "delete.cancel": "取消",
  "delete.confirm": "删除",
  "delete.deleting": "正在删除…",
  "delete.deletedNotice": "此会话已被删除。",
  "delete.notice.dismiss": "知道了",
};
