/**
 * English strings of rendered answers: code block labels, footnotes, images, "Show all".
 *
 * @module
 */
export const markdownEn = {
  "markdown.showAll": "Show all ({size} more)",
  "markdown.footnotes": "Footnotes",
  "markdown.footnoteBack": "Back to the reference",
  "markdown.image": "Image: {alt}",
  "markdown.codeLabel": "Code in {language}",
  "markdown.lang.text": "Text",
  "markdown.lang.javascript": "JavaScript",
  "markdown.lang.typescript": "TypeScript",
  "markdown.lang.python": "Python",
  "markdown.lang.bash": "Bash",
  "markdown.lang.shell": "Shell session",
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
