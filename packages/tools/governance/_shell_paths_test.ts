import assert from "node:assert/strict";
import { containsPath, normalizePath, type PathScope, wordPath } from "./_shell_paths.ts";
import { parseShell } from "./shell_words.ts";

const SCOPE: PathScope = { cwd: "/w/project", home: "/home/ada" };

function firstWord(source: string) {
  return parseShell(source).pipelines[0].stages[0].words[0];
}

Deno.test("normalizePath drops dots, doubled and trailing slashes", () => {
  const cases: [string, string][] = [
    ["/", "/"],
    ["//", "/"],
    ["/a/b/", "/a/b"],
    ["/a/./b", "/a/b"],
    ["/a/../b", "/b"],
    ["/../..", "/"],
    ["/a//b///c", "/a/b/c"],
  ];
  for (const [path, expected] of cases) {
    assert.equal(normalizePath(path), expected, `normalizePath(${path})`);
  }
});

Deno.test("containsPath is true for the folder itself and its ancestors only", () => {
  const cases: [string, string, boolean][] = [
    ["/", "/anything", true],
    ["/home", "/home/ada", true],
    ["/home/ada", "/home/ada", true],
    ["/home/ad", "/home/ada", false],
    ["/home/ada/x", "/home/ada", false],
  ];
  for (const [outer, inner, expected] of cases) {
    assert.equal(containsPath(outer, inner), expected, `containsPath(${outer}, ${inner})`);
  }
});

Deno.test("wordPath resolves what is known before the shell runs, and nothing else", () => {
  const cases: [string, string | null][] = [
    ["/", "/"],
    ["/*", "/"],
    ["/.*", "/"],
    ["/*.*", "/"],
    ["'/'*", "/"],
    ["'/*'", "/*"],
    ["\\*", "/w/project/*"],
    ["*", "/w/project"],
    ["*.o", "/w/project/*.o"],
    ["src/*", "/w/project/src"],
    [".", "/w/project"],
    ["./", "/w/project"],
    ["..", "/w"],
    ["build", "/w/project/build"],
    ["~", "/home/ada"],
    ["~/", "/home/ada"],
    ["~/x/..", "/home/ada"],
    ["~+", "/w/project"],
    ["~root", null],
    ["'~'", "/w/project/~"],
    ["$HOME", "/home/ada"],
    ['"$HOME"/*', "/home/ada"],
    ["${HOME}", "/home/ada"],
    ["${HOME:-/tmp}", "/home/ada"],
    ["${HOME%/*}", null],
    ["$PWD/..", "/w"],
    ["$DIR", null],
    ["$(pwd)", null],
    ["''", null],
  ];
  for (const [source, expected] of cases) {
    assert.equal(wordPath(firstWord(source), SCOPE), expected, `wordPath(${source})`);
  }
});

Deno.test("wordPath knows no relative path once the current folder is unknown", () => {
  const lost: PathScope = { cwd: null, home: "/home/ada" };
  assert.equal(wordPath(firstWord("*"), lost), null);
  assert.equal(wordPath(firstWord("$PWD"), lost), null);
  assert.equal(wordPath(firstWord("~+"), lost), null);
  assert.equal(wordPath(firstWord("/etc"), lost), "/etc");
  assert.equal(wordPath(firstWord("~/x"), lost), "/home/ada/x");
});
