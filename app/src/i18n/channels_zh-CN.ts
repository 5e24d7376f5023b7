/**
 * Settings → Channels (the Telegram bot) in Simplified Chinese.
 *
 * @module
 */
import type { channelsEn } from "./channels_en.ts";

export const channelsZhCN: Record<keyof typeof channelsEn, string> = {
  "settings.section.channels": "通道",
  "channels.title": "Telegram",
  "channels.intro":
    "通过你自己的机器人在 Telegram 中与 Daedalus 对话。先用 @BotFather 创建机器人并把 token 粘贴到这里，再从你的账号向机器人发送 /start：第一个这样做的私聊会成为所有者，机器人不回应其他任何人。",
  "channels.telegram": "Telegram 机器人",
  "channels.state.disabled": "关闭",
  "channels.state.starting": "连接中",
  "channels.state.running": "运行中",
  "channels.state.failed": "失败",
  "channels.state.stopped": "已停止",
  "channels.test": "测试",
  "channels.testOk": "token 有效（@{bot}）。向机器人发送 /start 以连接你的聊天。",
  "channels.testSent": "token 有效（@{bot}），已向所有者发送测试消息。",
  "channels.owner": "所有者：{name}",
  "channels.noOwner": "尚无所有者：从你的 Telegram 账号向机器人发送 /start。",
  "channels.reset": "重置所有者",
  "channels.pending": "{count} 条回复等待投递",
  "channels.lastFailure": "最近一条未送达的回复：{code}",
  "channels.form": "Telegram 机器人设置",
  "channels.enabled": "启用",
  "channels.token": "机器人 token",
  "channels.tokenHint": "来自 @BotFather；只保存在 channels.yaml 中，之后不再显示。",
  "channels.tokenKeep": "已保存 token。留空即保留，或粘贴新的 token。",
  "channels.model": "Telegram 对话使用的模型",
  "channels.noModels": "没有已启用的模型",
  "channels.agent": "Telegram 对话使用的代理",
  "channels.agentDefault": "默认代理",
  "channels.agentHint": "新对话（/start 或 /new 之后）使用此代理。",
  "channels.modelMissing": "请先选择模型（可在 设置 › 服务商与模型 中添加）。",
  "channels.advanced": "Bot API 服务器与代理",
  "channels.apiBaseUrl": "Bot API URL（留空：Telegram 官方）",
  "channels.proxy": "HTTP 代理（留空：保留或不使用）",
  "channels.save": "保存",
  "channels.saving": "保存中…",
};
