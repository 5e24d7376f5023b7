/**
 * Settings › Agents 和线程标题栏代理切换的简体中文文本。
 *
 * @module
 */
import type { agentsEn } from "./agents_en.ts";

export const agentsZhCN: Record<keyof typeof agentsEn, string> = {
  "settings.section.agents": "代理",
  "agents.title": "代理",
  "agents.intro":
    "代理是一种保存下来的工作方式：它的模型、权限、工具、技能和说明。每个线程使用一个代理；已经开始的运行保持开始时的代理。内置代理不能修改——复制一份再编辑副本。",
  "agents.loading": "正在读取代理…",
  "agents.listLabel": "代理",
  "agents.builtIn": "内置",
  "agents.edited": "已修改的内置代理",
  "agents.default": "默认",
  "agents.copy": "复制",
  "agents.copyOf": "{name}（副本）",
  "agents.edit": "编辑",
  "agents.remove": "删除",
  "agents.restore": "恢复内置版本",
  "agents.removeConfirm": "删除代理 {name}？使用它的线程将改用默认代理。",
  "agents.removed": "已删除 {agentId}。{count} 个线程现在使用 {movedTo}。",
  "agents.permissionLine": "权限：{preset}",
  "agents.toolsLine": "工具：{tools}",
  "agents.all": "全部",
  "agents.none": "无",
  "agents.editorTitle": "编辑代理 {name}",
  "agents.newTitle": "基于 {name} 新建代理",
  "agents.field.id": "ID",
  "agents.field.idHint": "小写字母、数字、“-”和“_”；之后不能更改。",
  "agents.field.name": "名称",
  "agents.field.description": "描述",
  "agents.field.model": "模型（回合未指定模型时使用，例如来自网关）",
  "agents.field.modelNone": "无：使用回合选择的模型",
  "agents.field.permission": "权限（此代理的运行最多获得的权限）",
  "agents.field.tools": "工具",
  "agents.field.skills": "技能",
  "agents.field.allTools": "运行时的全部工具",
  "agents.field.allSkills": "全部已启用的技能",
  "agents.field.instructions": "说明（追加到系统提示词）",
  "agents.field.recall": "召回长期记忆",
  "agents.field.makeDefault": "用于新线程",
  "agents.save": "保存",
  "agents.saving": "正在保存…",
  "agents.cancel": "取消",
  "agents.preset.read_only": "只读",
  "agents.preset.ask": "修改前询问",
  "agents.preset.workspace_write": "可写工作区",
  "agents.preset.full_access": "完全访问",
  "agents.headerLabel": "此线程的代理",
  "agents.headerBusy": "运行结束后才能切换代理。",
};
