/**
 * Simplified Chinese strings of the health pieces (Settings › Health, the fallback
 * picker and line, the waiting tool card).
 *
 * @module
 */
import type { healthEn } from "./health_en.ts";

/** The zh-CN table of {@linkcode healthEn}'s keys. */
export const healthZhCN: Record<keyof typeof healthEn, string> = {
  "settings.section.health": "运行状况",
  "health.intro":
    "某个工具或模型服务商反复失败时，它的熔断器会暂时把它关闭，运行会立即失败而不是一直等待。运行时重启后熔断器会重置。",
  "health.loading": "正在读取熔断器…",
  "health.refresh": "刷新",
  "health.healthy": "所有工具和服务商都运行正常。",
  "health.unhealthy": "有工具或服务商因反复失败已被暂时关闭。",
  "health.none": "运行时启动以来还没有调用过任何工具或服务商。",
  "health.table": "熔断器",
  "health.col.name": "工具或服务商",
  "health.col.state": "状态",
  "health.col.failures": "最近的失败",
  "health.col.retry": "下次尝试",
  "health.kind.tool": "工具",
  "health.kind.provider": "服务商",
  "health.kind.mcpServer": "MCP 服务器",
  "health.state.closed": "正常",
  "health.state.open": "已关闭",
  "health.state.half_open": "正在重新测试",
  "health.failures": "最近 {calls} 次调用中有 {failures} 次失败",
  "health.noFailures": "没有失败",
  "health.lastFailed": "上一次调用失败",
  "health.consecutive": "连续 {count} 次",
  "health.retryIn": "{time}后再试",
  "health.retryNext": "下一次调用会测试它是否恢复",
  "health.retryNone": "—",
  "settings.models.fallback": "备用模型",
  "settings.models.fallbackOf": "{name} 的备用模型",
  "settings.models.fallbackNone": "无",
  "settings.models.fallbackDisabled": "{name}（已停用）",
  "settings.models.fallbackHint": "如果这个模型的服务商持续失败，运行会改用备用模型继续。",
  "fallback.line": "{reason}已改用 {model} 继续。",
  "fallback.lineNoReason": "模型调用失败，运行已改用 {model} 继续。",
  "fallback.label": "备用模型",
  "fallback.from": "开始使用",
  "fallback.to": "继续使用",
  "outcome.openHealth": "查看设置 › 运行状况",
  "status.waitingApproval": "等待批准",
};
