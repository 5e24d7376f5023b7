/**
 * 代理的提问（`ask_user`）与计划的简体中文文案：对话中的提问卡片、等待标签、输入框上方固定的计划。
 *
 * @module
 */
import type { questionsEn } from "./questions_en.ts";

export const questionsZhCN: Record<keyof typeof questionsEn, string> = {
  "question.title": "代理向你提问",
  "question.titleResolved": "提问",
  "question.answerLabel": "你的回答",
  "question.send": "发送回答",
  "question.decline": "不回答",
  "question.pickSeveral": "选择一项或多项，然后发送",
  "question.keysText": "按键：Enter 发送 · Shift+Enter 换行",
  "question.keysChoices": "按键：Tab 在选项间移动 · Enter 选择",
  "question.keysSeveral": "按键：Tab 在选项间移动 · 空格勾选",
  "question.answered": "已回答：{answer}",
  "question.declined": "已拒绝回答",
  "question.declinedMessage": "已拒绝：“{message}”",
  "question.cancelled": "已取消：运行在回答前结束",
  "progress.waitingQuestion": "正在等待你的回答",
  "question.waiting": "等待你的回答",
  "sidebar.question": "代理提出了问题，正在等待你的回答",
  "sidebar.questionBadge": "待回答",
  "plan.label": "计划",
  "plan.progress": "已完成 {done} / {total}",
  "plan.status.pending": "待办",
  "plan.status.in_progress": "进行中",
  "plan.status.done": "已完成",
  "plan.expand": "显示计划",
  "plan.collapse": "隐藏计划",
};
