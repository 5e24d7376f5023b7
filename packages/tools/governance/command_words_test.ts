import assert from "node:assert/strict";
import { prefixWords, simpleCommands, startsWithWords } from "./command_words.ts";

Deno.test("simpleCommands splits a line into each command's words", () => {
  const cases: [string, string[][] | null][] = [
    ["git status -s", [["git", "status", "-s"]]],
    ["  git   status\t-s  ", [["git", "status", "-s"]]],
    ["ls; rm -rf x", [["ls"], ["rm", "-rf", "x"]]],
    ["a && b || c | d & e", [["a"], ["b"], ["c"], ["d"], ["e"]]],
    // A carriage return is part of a word to the shell too: `b\r` is not the command `b`.
    ["a\nb\r\nc", [["a"], ["b\r"], ["c"]]],
    ["(cd x && make)", [["cd", "x"], ["make"]]],
    ["echo $(rm -rf x) ok", [["echo", "$(rm -rf x)", "ok"], ["rm", "-rf", "x"]]],
    ['echo "$(rm x)"', [["echo", "$(rm x)"], ["rm", "x"]]],
    ["echo `id` ok", [["echo", "$(id)", "ok"], ["id"]]],
    ["diff <(ls a) <(ls b)", [["diff", "$(ls a)", "$(ls b)"], ["ls", "a"], ["ls", "b"]]],
    ["cat <<EOF\n$(rm x)\nEOF", [["cat"], ["rm", "x"]]],
    ["'rm' -rf x", [["rm", "-rf", "x"]]],
    ['"rm" -rf "a b"', [["rm", "-rf", "a b"]]],
    ["r\\m -rf x", [["rm", "-rf", "x"]]],
    ["'a;b' c", [["a;b", "c"]]],
    ['"a && b"', [["a && b"]]],
    ["FOO=1 BAR=x rm y", [["rm", "y"]]],
    ["! rm y", [["rm", "y"]]],
    ["{ rm y; }", [["rm", "y"]]],
    ["if true; then rm y; fi", [["true"], ["rm", "y"]]],
    ["while x; do rm y; done", [["x"], ["rm", "y"]]],
    ["time make", [["make"]]],
    ["git status 2>&1", [["git", "status"]]],
    ["git status > out.txt", [["git", "status"]]],
    ["git status >/dev/null 2>&1 < in", [["git", "status"]]],
    ["echo hi # rm -rf /", [["echo", "hi"]]],
    ["echo a#b", [["echo", "a#b"]]],
    ["", []],
    [";;  ;", []],
    ["FOO=1", []],
    ["echo 'unclosed", null],
    ["echo $(rm x", null],
    ["a \\\nb", [["a", "b"]]],
  ];
  for (const [line, expected] of cases) {
    assert.deepEqual(
      simpleCommands(line)?.map((command) => command.words) ?? null,
      expected,
      `words of ${JSON.stringify(line)}`,
    );
  }
});

Deno.test("simpleCommands marks output redirected into a file, not into /dev/null or a descriptor", () => {
  const cases: [string, boolean[]][] = [
    ["git status", [false]],
    ["git status > out.txt", [true]],
    ["git status >> log", [true]],
    ["git status >| log", [true]],
    ["git status &> log", [true]],
    ["git status >&log", [true]],
    ["git status 2>&1", [false]],
    ["git status 2>&-", [false]],
    ["git status >/dev/null", [false]],
    ["git status < in.txt", [false]],
    ["a > x; b", [true, false]],
  ];
  for (const [line, expected] of cases) {
    assert.deepEqual(
      simpleCommands(line)?.map((command) => command.writesFile),
      expected,
      `writesFile of ${JSON.stringify(line)}`,
    );
  }
});

Deno.test("startsWithWords matches a prefix word by word", () => {
  const cases: [string, string, boolean][] = [
    ["git status", "git status -s", true],
    ["git status", "git status", true],
    ["git status", "git statusx", false],
    ["git status", "git", false],
    ["git", "git push --force", true],
    ["  git   status ", "git status", true],
    ["git status", "gitstatus", false],
    ["rm", "'rm' -rf x", true],
  ];
  for (const [prefix, line, expected] of cases) {
    const [command] = simpleCommands(line) ?? [];
    assert.ok(command !== undefined, `a command in ${line}`);
    assert.equal(
      startsWithWords(command, prefixWords(prefix)),
      expected,
      `${JSON.stringify(prefix)} starts ${JSON.stringify(line)}`,
    );
  }
  assert.equal(startsWithWords({ words: ["x"], writesFile: false }, []), false, "empty prefix");
});
