/**
 * 设置 → 个人资料（用量图表与统计）的简体中文文案。
 *
 * @module
 */
import type { profileEn } from "./profile_en.ts";

export const profileZhCN: Record<keyof typeof profileEn, string> = {
  "profile.title": "用量",
  "profile.intro": "你的 Token 用量，依据模型服务商上报的数据统计。日期按你本地时区的日历日计算。",
  "profile.refresh": "刷新",
  "profile.loading": "正在加载用量…",
  "profile.figures": "用量统计",
  "profile.lifetime": "累计 Token",
  "profile.peak": "单日峰值",
  "profile.longestRun": "最长运行",
  "profile.currentStreak": "当前连续天数",
  "profile.longestStreak": "最长连续天数",
  "profile.tokens": "{tokens} 个 Token",
  "profile.none": "尚无用量",
  "profile.days.one": "{count} 天",
  "profile.days.other": "{count} 天",
  "profile.duration.hms": "{h} 小时 {m} 分 {s} 秒",
  "profile.duration.ms": "{m} 分 {s} 秒",
  "profile.duration.s": "{s} 秒",
  "profile.range": "图表范围",
  "profile.rangeDays": "{days} 天",
  "profile.chartTitle": "每日 Token，最近 {days} 天",
  "profile.chartDesc": "{from} 至 {to} 共 {total} 个 Token。",
  "profile.dayTitle": "{date}：{tokens} 个 Token",
  "profile.showTable": "以表格显示",
  "profile.date": "日期",
  "profile.dayTokens": "Token 数",
};
