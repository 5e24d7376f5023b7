import type { noticesEn } from "./notices_en.ts";

/** 应用提示（更新提示与通知）的简体中文文本。 */
export const noticesZhCN: Record<keyof typeof noticesEn, string> = {
  "announce.completed": "助手已完成回答。",
  "update.ready": "Daedalus 的新版本已就绪。",
  "update.reload": "重新加载以更新",
  "update.later": "稍后",
  "notify.ask": "当窗口在后台时，后台命令结束后是否发送通知？",
  "notify.enable": "启用通知",
  "notify.notNow": "暂不",
  "notify.finished": "后台命令已完成",
  "notify.failed": "后台命令失败",
  "notify.exit": "{command} — 退出码 {code}",
  "notify.stopped": "{command} — {state}",
  "process.background.running": "后台运行中",
  "process.background.ended": "后台已结束",
  "process.badge.background": "后台",
  "process.badge.pty": "终端",
  "process.badge.supervised": "受监管",
};
