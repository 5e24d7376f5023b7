import assert from "node:assert/strict";
import { unwrap } from "./_wrappers.ts";
import { parseShell, wordSource } from "./shell_words.ts";

// The chain as "name arg arg > name arg …".
function chainOf(source: string): string {
  const words = parseShell(source).pipelines[0].stages[0].words;
  return unwrap(words).map((invocation) =>
    [invocation.name, ...invocation.args.map(wordSource)].join(" ")
  ).join(" > ");
}

Deno.test("wrappers, assignments, keywords and paths are taken off in order", () => {
  const cases: [string, string][] = [
    ["rm -rf x", "rm -rf x"],
    ["/bin/rm x", "rm x"],
    ["./tool a", "tool a"],
    ["A=1 B=2 rm x", "rm x"],
    ["'A=1' rm x", "A=1 rm x"],
    ["! rm x", "rm x"],
    ["if rm x", "rm x"],
    ["{ rm x", "rm x"],
    ["sudo -u root -E rm x", "sudo -u root -E rm x > rm x"],
    ["sudo A=1 rm x", "sudo A=1 rm x > rm x"],
    ["env -i -u PATH A=1 rm x", "env -i -u PATH A=1 rm x > rm x"],
    ["nohup nice -n 5 rm x", "nohup nice -n 5 rm x > nice -n 5 rm x > rm x"],
    ["timeout -k 1 5 rm x", "timeout -k 1 5 rm x > rm x"],
    ["time -p rm x", "time -p rm x > rm x"],
    ["exec -a name rm x", "exec -a name rm x > rm x"],
    ["xargs -0 -I {} rm {}", "xargs -0 -I {} rm {} > rm {}"],
    ["command -p rm x", "command -p rm x > rm x"],
    ["command -v rm", "command -v rm"],
    ["flock /tmp/lock rm x", "flock /tmp/lock rm x > rm x"],
    ["busybox rm x", "busybox rm x > rm x"],
    ["env -- rm x", "env -- rm x > rm x"],
    ["$CMD x", ""],
    ["sudo $CMD", "sudo ${CMD}"],
    ["A=1", ""],
  ];
  for (const [source, expected] of cases) {
    assert.equal(chainOf(source), expected, `chain of ${JSON.stringify(source)}`);
  }
});
