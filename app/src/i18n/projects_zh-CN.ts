import type { projectsEn } from "./projects_en.ts";

/** 侧边栏项目与分页的简体中文文本。 */
export const projectsZhCN: Record<keyof typeof projectsEn, string> = {
  "projects.label": "项目",
  "projects.threads": "会话",
  "projects.new": "新建项目会话",
  "projects.newIn": "在 {name} 中新建会话",
  "projects.toggle": "显示或隐藏 {name} 的会话",
  "projects.dialogTitle": "在项目文件夹中新建会话",
  "projects.path": "文件夹（本机上的绝对路径）",
  "projects.pathHint": "运行时在此文件夹中工作；同一文件夹的会话会归为一组。",
  "projects.name": "项目名称（可选）",
  "projects.create": "创建",
  "projects.cancel": "取消",
  "projects.pathRequired": "请输入文件夹的绝对路径。",
  "projects.card": "在项目 {name} 中的新会话",
  "threads.more": "加载更多会话",
};
