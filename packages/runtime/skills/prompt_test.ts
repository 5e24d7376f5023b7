import assert from "node:assert/strict";
import { skillCatalogPrompt } from "./prompt.ts";

Deno.test("skillCatalogPrompt is empty when no skill is enabled", () => {
  assert.equal(skillCatalogPrompt([]), "");
});

Deno.test("skillCatalogPrompt lists each skill and tells the model to read SKILL.md", () => {
  const text = skillCatalogPrompt([
    {
      name: "pdf-tools",
      description: "Fill and merge PDF forms.\nUse for any PDF task.",
      location: "/home/u/.daedalus/skills/pdf-tools/SKILL.md",
    },
    {
      name: "csv",
      description: "Clean <b>CSV</b> & TSV",
      location: "/home/u/My Skills/csv/SKILL.md",
    },
  ]);
  assert.match(text, /use the `read` tool to read that skill's\s+SKILL\.md at its location/);
  assert.ok(
    text.includes(
      "<name>pdf-tools</name>\n<description>Fill and merge PDF forms. Use for any PDF task." +
        "</description>\n<location>/home/u/.daedalus/skills/pdf-tools/SKILL.md</location>",
    ),
    text,
  );
  assert.ok(text.includes("<description>Clean &lt;b&gt;CSV&lt;/b&gt; &amp; TSV</description>"));
  assert.ok(text.includes("<location>/home/u/My Skills/csv/SKILL.md</location>"), "verbatim path");
  assert.ok(text.indexOf("pdf-tools") < text.indexOf("<name>csv"), "keeps the given order");
  assert.ok(!text.includes("Do the thing"), "no body is injected");
});
