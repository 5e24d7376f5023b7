import type { contextEn } from "./context_en.ts";

/** 上下文用量与“立即压缩”的中文文案。 */
export const contextZhCN: Record<keyof typeof contextEn, string> = {
  "context.percent": "已用上下文 {percent} %",
  "context.tokens": "上一步用了 {used} / {window} 个 token",
  "context.tokensEstimated": "上一步约用了 {used} / {window} 个 token（估算）",
  "context.compact": "立即压缩",
  "context.compacting": "正在压缩…",
  "context.compactHint": "把目前的对话总结成摘要；之后的消息看到摘要，而不是之前的各轮",
  "context.compactBusy": "请等运行结束（或停止它）后再压缩",
  "context.compacted": "已压缩：约 {before} 个 token 的历史变为 {after} 个",
  "context.nothing": "暂时没有可压缩的内容",
};
