/**
 * Simplified Chinese strings of the composer's attachments and reasoning-effort menu.
 *
 * @module
 */
import type { attachmentsEn } from "./attachments_en.ts";

export const attachmentsZhCN: Record<keyof typeof attachmentsEn, string> = {
  "attachments.attach": "添加附件",
  "attachments.list": "附件",
  "attachments.remove": "移除 {name}",
  "attachments.uploading": "正在上传…",
  "attachments.ready": "已就绪",
  "attachments.failed": "上传失败",
  "attachments.tooLarge": "{name} 超过 8 MB，未添加。",
  "attachments.tooMany": "每条消息最多附带 8 个文件，其余文件未添加。",
  "attachments.refusedTooLarge": "超过 8 MB",
  "attachments.refusedType": "只能附加 PNG、JPEG、GIF、WebP 图片和 UTF-8 文本",
  "attachments.refusedEmpty": "文件为空",
  "attachments.drop": "松开以添加附件",
  "attachments.kind.image": "图片",
  "attachments.kind.text": "文本",
  "effort.label": "推理强度",
  "effort.prefix": "推理：",
  "effort.auto": "自动",
  "effort.none": "无",
  "effort.minimal": "极低",
  "effort.low": "低",
  "effort.medium": "中",
  "effort.high": "高",
  "effort.xhigh": "极高",
  "effort.max": "最高",
  "effort.ultra": "超高",
};
