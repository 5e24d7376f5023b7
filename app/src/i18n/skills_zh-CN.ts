/**
 * 设置 → 技能 的简体中文文案（以及各数据分区共用的失败提示）。
 *
 * @module
 */
import type { skillsEn } from "./skills_en.ts";

export const skillsZhCN: Record<keyof typeof skillsEn, string> = {
  "dataSection.failed": "操作未成功。",
  "skills.title": "技能",
  "skills.intro":
    "技能是运行时技能目录下的文件夹，每个都包含一个 SKILL.md。已启用的技能会提供给新的运行；已开始的运行保留其开始时的技能。",
  "skills.refresh": "刷新",
  "skills.refreshing": "正在刷新…",
  "skills.loading": "正在读取技能目录…",
  "skills.none": "还没有技能。在技能目录中添加一个包含 SKILL.md 的文件夹，然后点击刷新。",
  "skills.listLabel": "技能",
  "skills.toggle": "启用技能 {name}",
  "skills.on": "开",
  "skills.off": "关",
  "skills.problemsTitle": "无法加载的条目",
  "skills.entryUnnamed": "（未命名条目）",
  "skills.code": "代码：",
  "skills.problem.invalid_name":
    "文件夹名称不是有效的技能名称：需为 1–64 个小写字母、数字或连字符，并以字母或数字开头。",
  "skills.problem.symlink_refused": "技能目录中的符号链接不会被跟随。",
  "skills.problem.not_a_directory": "只有文件夹才能作为技能；此条目是一个文件。",
  "skills.problem.missing_skill_md": "该文件夹中没有 SKILL.md。",
  "skills.problem.too_large": "SKILL.md 太大。",
  "skills.problem.invalid_utf8": "SKILL.md 不是有效的 UTF-8 文本。",
  "skills.problem.invalid_frontmatter": "无法读取 SKILL.md 顶部的前置元数据。",
  "skills.problem.frontmatter_too_large": "SKILL.md 的前置元数据过长。",
  "skills.problem.name_mismatch": "SKILL.md 中的名称与文件夹名称不一致。",
  "skills.problem.missing_description": "SKILL.md 缺少描述。",
  "skills.problem.description_too_long": "描述超过 1,024 个字符。",
  "skills.problem.location_too_long": "此技能的路径过长。",
  "skills.problem.unreadable": "无法读取该条目。",
};
