/**
 * Chinese strings of rendered answers (same keys as `markdown_en.ts`).
 *
 * @module
 */
export const markdownZhCN = {
  "markdown.showAll": "显示全部（还有 {size}）",
  "markdown.footnotes": "脚注",
  "markdown.footnoteBack": "返回引用处",
  "markdown.image": "图片：{alt}",
  "markdown.codeLabel": "{language} 代码",
  "markdown.lang.text": "文本",
  "markdown.lang.javascript": "JavaScript",
  "markdown.lang.typescript": "TypeScript",
  "markdown.lang.python": "Python",
  "markdown.lang.bash": "Bash",
  "markdown.lang.shell": "终端会话",
  "markdown.lang.json": "JSON",
  "markdown.lang.yaml": "YAML",
  "markdown.lang.html": "HTML",
  "markdown.lang.xml": "XML",
  "markdown.lang.css": "CSS",
  "markdown.lang.go": "Go",
  "markdown.lang.rust": "Rust",
  "markdown.lang.java": "Java",
  "markdown.lang.c": "C",
  "markdown.lang.cpp": "C++",
  "markdown.lang.sql": "SQL",
  "markdown.lang.diff": "Diff",
  "markdown.lang.markdown": "Markdown",
};
