import assert from "node:assert/strict";
import {
  literalWord,
  parseShell,
  ShellParseError,
  type ShellScript,
  wordSource,
} from "./shell_words.ts";

// A pipeline as "stage | stage" (words joined by a space, each as wordSource), "&" when in
// the background, redirections as "op target".
function shape(script: ShellScript): string[] {
  return script.pipelines.map((pipeline) =>
    pipeline.stages.map((stage) =>
      [
        ...stage.words.map(wordSource),
        ...stage.redirects.map((r) => `${r.op}${wordSource(r.target)}`),
      ].join(" ")
    ).join(" | ") + (pipeline.background ? " &" : "")
  );
}

Deno.test("operators split a line into pipelines and stages", () => {
  const cases: [string, string[]][] = [
    ["ls", ["ls"]],
    ["a; b", ["a", "b"]],
    ["a && b || c", ["a", "b", "c"]],
    ["a | b | c", ["a | b | c"]],
    ["a |& b", ["a | b"]],
    ["a & b", ["a &", "b"]],
    ["a\nb\n\nc", ["a", "b", "c"]],
    ["(a; b) | c", ["a", "b | c"]],
    ["{ a; b; }", ["{ a", "b", "}"]],
    ["a;;b", ["a", "b"]],
    ["a\\\nb", ["ab"]],
    ["ls # rm -rf /", ["ls"]],
    ["echo a#b", ["echo a#b"]],
    ["", []],
  ];
  for (const [source, expected] of cases) {
    assert.deepEqual(shape(parseShell(source)), expected, `parsing ${JSON.stringify(source)}`);
  }
});

Deno.test("quotes and escapes are removed, expansions are kept marked", () => {
  const cases: [string, string[]][] = [
    [`echo 'a b' "c d" e\\ f`, ["echo", "a b", "c d", "e f"]],
    [`r"m" -'r'f`, ["rm", "-rf"]],
    [`echo "$HOME/x" '$HOME'`, ["echo", "${HOME}/x", "$HOME"]],
    [`echo \${HOME:-/} $1 $@`, ["echo", "${HOME:-/}", "${1}", "${@}"]],
    [`echo $(ls "a)b") \`pwd\``, ["echo", `$(ls "a)b")`, "$(pwd)"]],
    [`echo "\\$x \\" \\\\"`, ["echo", `$x " \\`]],
    [`echo $'a\\tb\\x41\\101'`, ["echo", "a\tbAA"]],
    [`echo $"x"`, ["echo", "x"]],
    [`echo $((1 + 2))`, ["echo", "${((1 + 2))}"]],
    [`cat <(curl x)`, ["cat", "$(curl x)"]],
    [`echo ''`, ["echo", ""]],
    [`echo $`, ["echo", "$"]],
  ];
  for (const [source, expected] of cases) {
    const words = parseShell(source).pipelines[0].stages[0].words.map(wordSource);
    assert.deepEqual(words, expected, `words of ${JSON.stringify(source)}`);
  }
});

Deno.test("literalWord is the text only when nothing in the word is expanded", () => {
  const word = (source: string) => parseShell(source).pipelines[0].stages[0].words[0];
  assert.equal(literalWord(word(`'a'"b"c`)), "abc");
  assert.equal(literalWord(word(`a$HOME`)), null);
  assert.equal(literalWord(word(`$(ls)`)), null);
  assert.deepEqual(word(`FOO=1`).parts, [{ kind: "text", text: "FOO=1", quoted: false }]);
});

Deno.test("redirections are kept apart, with their file descriptor dropped", () => {
  const cases: [string, string[]][] = [
    ["ls 2>/dev/null", ["ls >/dev/null"]],
    ["make > out 2>&1", ["make >out >&1"]],
    ["cat < in >> out", ["cat <in >>out"]],
    ["cmd &> log", ["cmd &>log"]],
    ["echo 2 > f", ["echo 2 >f"]],
    ["sort <(ls) >(cat)", ["sort $(ls) $(cat)"]],
    ["bash <<< 'rm x'", ["bash <<<rm x"]],
  ];
  for (const [source, expected] of cases) {
    assert.deepEqual(shape(parseShell(source)), expected, `parsing ${JSON.stringify(source)}`);
  }
});

Deno.test("here-document bodies are attached; expansions only with an unquoted delimiter", () => {
  const body = (source: string) =>
    parseShell(source).pipelines[0].stages[0].redirects[0].heredoc?.parts;
  assert.deepEqual(body("cat <<'EOF'\n$(x)\nEOF"), [
    { kind: "text", text: "$(x)", quoted: true },
  ]);
  assert.deepEqual(body("cat <<EOF\na $(x)\nEOF"), [
    { kind: "text", text: "a ", quoted: true },
    { kind: "command", script: "x", quoted: true },
  ]);
  assert.deepEqual(body("cat <<-EOF\n\tline\n\tEOF\n"), [
    { kind: "text", text: "line", quoted: true },
  ]);
  const script = parseShell("cat <<EOF\nbody\nEOF\nls");
  assert.deepEqual(shape(script), ["cat <<EOF", "ls"], "the line after the body is a command");
  assert.deepEqual(body("cat <<EOF\nno end"), [{ kind: "text", text: "no end", quoted: true }]);
});

Deno.test("array assignments keep their values apart from the command's words", () => {
  const cases: [string, string[], string[]][] = [
    ['files=(a "b c") ls', ["files=", "ls"], ["a", "b c"]],
    ["x+=(\n1\n2\n)", ["x+="], ["1", "2"]],
    ["m[k]=(v)", ["m[k]="], ["v"]],
    ["x=($(ls))", ["x="], ["$(ls)"]],
  ];
  for (const [source, words, values] of cases) {
    const stage = parseShell(source).pipelines[0].stages[0];
    assert.deepEqual(stage.words.map(wordSource), words, `words of ${JSON.stringify(source)}`);
    assert.deepEqual(
      stage.arrayValues.map(wordSource),
      values,
      `values of ${JSON.stringify(source)}`,
    );
  }
});

Deno.test("function definitions are recognised in both spellings", () => {
  const cases: [string, string, string[], string[]][] = [
    [":(){ :|:& };:", ":", [": | : &"], [":"]],
    ["f() { echo hi; }; f", "f", ["echo hi"], ["f"]],
    ["function g { g | g & }", "g", ["g | g &"], []],
    ["function h() ( ls )", "h", ["ls"], []],
    ["k()\n{ ls; }", "k", ["ls"], []],
  ];
  for (const [source, name, body, rest] of cases) {
    const script = parseShell(source);
    assert.equal(script.functions.length, 1, `one function in ${JSON.stringify(source)}`);
    assert.equal(script.functions[0].name, name, `name in ${JSON.stringify(source)}`);
    assert.deepEqual(shape(script.functions[0].body), body, `body of ${JSON.stringify(source)}`);
    assert.deepEqual(shape(script), rest, `rest of ${JSON.stringify(source)}`);
  }
});

Deno.test("unbalanced lines throw ShellParseError with code unparseable_command", () => {
  const cases: [string, string][] = [
    ["echo 'a", "Single quote is not closed"],
    [`echo "a`, "Double quote is not closed"],
    ["echo $(ls", "Command substitution is not closed"],
    ["echo $((1", "Arithmetic expansion is not closed"],
    ["echo `ls", "Backtick is not closed"],
    ["echo ${HOME", "Parameter expansion ${ is not closed"],
    ["echo $'a", "Quote $' is not closed"],
    ["cat <(ls", "Process substitution is not closed"],
    ["echo $(echo 'a)", "Single quote in command substitution is not closed"],
    ["cat >", "Redirection > has no target"],
    ["cat > ;", "Redirection > has no target"],
    ["| sh", "Pipe | has no command before it"],
    ["a | | b", "Pipe | has no command before it"],
    ["echo (", "Parenthesis ( is not where a command can start"],
    ["f() ls", "Function f has no body in braces or parentheses"],
    ["f() { ls", "Body of function f is not closed"],
    ["x=(a b", "Array assignment ( is not closed"],
    ["x=(a; b)", "Array assignment ( is not closed"],
    [
      `${'"$('.repeat(65)}${')"'.repeat(65)}`,
      "Quotes and substitutions are nested more than 64 deep",
    ],
    [`${"f() { ".repeat(66)}${"} ".repeat(66)}`, "Functions are nested more than 64 deep"],
  ];
  for (const [source, message] of cases) {
    assert.throws(
      () => parseShell(source),
      (error) =>
        error instanceof ShellParseError && error.code === "unparseable_command" &&
        error.message === message,
      `${JSON.stringify(source)} should fail with ${message}`,
    );
  }
});
