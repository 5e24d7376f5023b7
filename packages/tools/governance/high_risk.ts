/**
 * Stage 3 of the tool-call gate (issue 14): whether a process tool's command line is
 * high-risk — a recursive delete of `/`, the home directory or the workspace root, `mkfs`,
 * `dd` (or a redirection) onto a disk device, `chmod`/`chown -R` on `/`, a fork bomb, a
 * download piped into a shell, `git push --force`, or `sudo`/`doas`/`su`/`pkexec`/`run0`.
 * The rules and their order are {@linkcode HIGH_RISK_RULES}.
 *
 * How the gate will use it (not wired yet; the approvals step does that): for `process_start`
 * (and later any tool that runs a shell command), once stage 2's permission rules let the
 * call through, the gate calls {@linkcode classifyHighRisk} with the command, its `cwd`, the
 * workspace root and the runtime's home directory. A verdict turns the call into an approval
 * request — `risk: "high"`, a stage-3 reason code (`high_risk_command` is the suggestion),
 * the verdict's `rule` and `reason` on the card — even under `full_access`, unless the
 * configuration turns stage 3 off. `null` lets the call go on to stage 4. The classifier is
 * pure and synchronous (no file system, no environment), so the gate can call it on every
 * call within its time budget, and a test can pin every verdict.
 *
 * The command is matched on its parsed form (see {@linkcode parseShell}), never as a
 * substring: `echo "rm -rf /"` is harmless, `rm -r -f /`, `/bin/rm -fr ~`, `sudo rm …`,
 * `env X=1 nohup rm …`, `sh -c 'rm …'`, `eval "rm …"`, `xargs rm …`, `$(rm …)` and
 * `cd / && rm -rf *` are all seen through. A line that cannot be parsed (an unclosed quote or
 * substitution) is high-risk with rule `unparseable_command`: what cannot be read cannot be
 * cleared. Shells nested deeper than HIGH_RISK_MAX_NESTING_DEPTH give `command_too_nested`.
 *
 * Deliberate choices:
 * - `git push --force-with-lease` is caught as well as `--force`/`-f`/`+refspec`/`--mirror`:
 *   the lease only guards against commits pushed since the last fetch, and an agent that
 *   fetched before pushing rewrites the remote's history all the same.
 * - `find / -delete` (or `-exec rm`) is a recursive delete of its roots when no test narrows
 *   it; `find . -name '*.o' -delete` is an ordinary clean-up and is not caught.
 * - A delete of a folder that contains home or the workspace (`rm -rf /home`) counts.
 *
 * Not caught (a shell cannot be fully known before it runs, and stage 2 still asks for
 * commands under the default preset): targets held in other variables (`rm -rf "$DIR"`) or
 * produced by commands, a script written to a file and run later, aliases and functions
 * that rename a program, `ssh host 'rm -rf /'` (another machine), interpreters other than
 * shells (`curl … | python`), a script piped into a shell from anything but a download or a
 * literal `echo`/`printf` (`base64 -d | sh`), `cp`/`tee` onto a device, `env -S`, and deletes
 * of system folders other than `/` itself (`rm -rf /usr`).
 *
 * @module
 */
import { HIGH_RISK_MAX_NESTING_DEPTH } from "../limits.ts";
import { normalizePath, wordPath } from "./_shell_paths.ts";
import { type Invocation, skipOptions, unwrap, WATCH_VALUE_OPTIONS } from "./_wrappers.ts";
import {
  HIGH_RISK_RULES,
  type HighRiskRule,
  isDataDevice,
  programHit,
  type RuleHit,
  type RuleScope,
} from "./high_risk_rules.ts";
import {
  literalWord,
  parseShell,
  type Redirect,
  ShellParseError,
  type ShellScript,
  type SimpleCommand,
  type Word,
  wordSource,
} from "./shell_words.ts";

/** What {@linkcode classifyHighRisk} looks at. */
export interface HighRiskInput {
  /** The shell command line, as `process_start` receives it. */
  command: string;
  /** The folder it runs in: absolute, or relative to the workspace root (default: the root). */
  cwd?: string;
  /** The thread's workspace root (absolute). */
  workspaceRoot: string;
  /** The home directory of the user the runtime runs as (absolute). */
  homeDir: string;
}

/** A high-risk verdict: which rule matched and the sentence the approval card shows. */
export interface HighRiskVerdict {
  /** Always `high`: the call needs the user's approval. */
  risk: "high";
  /** The stable id of the rule that matched. */
  rule: HighRiskRule;
  /** What the command would do, for the user. */
  reason: string;
}

/** Input the classifier cannot work with (a relative root or home); `code` is stable. */
export class HighRiskInputError extends Error {
  /** Stable code of every {@linkcode HighRiskInputError}. */
  readonly code = "invalid_high_risk_input";
  /**
   * Makes the error.
   *
   * @param message What is wrong, sentence case, without a trailing period.
   */
  constructor(message: string) {
    super(message);
    this.name = "HighRiskInputError";
  }
}

/**
 * Decides whether a command line is high-risk.
 *
 * @param input The command, where it runs, the workspace root and the home directory.
 * @returns The verdict of the most specific rule that matched, or `null` when none did.
 * @throws {HighRiskInputError} When the workspace root, home directory or `cwd` is not usable.
 * @example
 * ```ts
 * import { classifyHighRisk } from "@daedalus/tools";
 *
 * const verdict = classifyHighRisk({
 *   command: "cd ~ && rm -rf *",
 *   workspaceRoot: "/home/ada/project",
 *   homeDir: "/home/ada",
 * });
 * console.log(verdict?.rule); // "recursive_delete_home"
 * ```
 */
export function classifyHighRisk(input: HighRiskInput): HighRiskVerdict | null {
  const walk: Walk = { scope: scopeOf(input), depth: 0, hits: [] };
  walkSource(input.command, walk);
  const hit =
    walk.hits.sort((a, b) => HIGH_RISK_RULES.indexOf(a.rule) - HIGH_RISK_RULES.indexOf(b.rule))[0];
  return hit === undefined ? null : { risk: "high", rule: hit.rule, reason: hit.reason };
}

function scopeOf(input: HighRiskInput): RuleScope {
  for (
    const [name, value] of [["workspaceRoot", input.workspaceRoot], ["homeDir", input.homeDir]]
  ) {
    if (typeof value !== "string" || !value.startsWith("/")) {
      throw new HighRiskInputError(
        `${name} must be an absolute path, got ${JSON.stringify(value)}`,
      );
    }
  }
  if (typeof input.command !== "string") {
    throw new HighRiskInputError(`command must be a string, got ${typeof input.command}`);
  }
  if (input.cwd !== undefined && (typeof input.cwd !== "string" || input.cwd === "")) {
    throw new HighRiskInputError(`cwd must be a non-empty path, got ${JSON.stringify(input.cwd)}`);
  }
  const workspaceRoot = normalizePath(input.workspaceRoot);
  const cwd = input.cwd === undefined
    ? workspaceRoot
    : normalizePath(input.cwd.startsWith("/") ? input.cwd : `${workspaceRoot}/${input.cwd}`);
  return { cwd, home: normalizePath(input.homeDir), workspaceRoot };
}

interface Walk {
  scope: RuleScope;
  depth: number;
  hits: RuleHit[];
}

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish"]);
const DOWNLOADERS = new Set(["curl", "wget", "fetch", "http", "https", "xh", "aria2c"]);
const SOURCING = new Set(["eval", "source", "."]);

function walkSource(source: string, walk: Walk): void {
  if (walk.depth > HIGH_RISK_MAX_NESTING_DEPTH) {
    walk.hits.push({
      rule: "command_too_nested",
      reason: `Shells are nested more than ${HIGH_RISK_MAX_NESTING_DEPTH} deep, too deep to check`,
    });
    return;
  }
  let script: ShellScript;
  try {
    script = parseShell(source);
  } catch (error) {
    if (!(error instanceof ShellParseError)) throw error;
    walk.hits.push({
      rule: "unparseable_command",
      reason: `The command line cannot be parsed (${error.message}), so it cannot be checked`,
    });
    return;
  }
  walkScript(script, walk);
}

// An inner shell has its own current folder: a `cd` in it does not move the outer one.
function nested(walk: Walk): Walk {
  return { scope: { ...walk.scope }, depth: walk.depth + 1, hits: walk.hits };
}

function walkScript(script: ShellScript, walk: Walk): void {
  for (const definition of script.functions) {
    if (isForkBomb(definition.name, definition.body)) {
      walk.hits.push({
        rule: "fork_bomb",
        reason:
          `Function ${definition.name} starts copies of itself without end (a fork bomb), exhausting the machine's processes`,
      });
    }
    walkScript(definition.body, nested(walk));
  }
  for (const pipeline of script.pipelines) {
    const chains: Invocation[][] = [];
    for (const [index, stage] of pipeline.stages.entries()) {
      chains.push(walkCommand(stage, walk, index > 0 ? echoedText(chains[index - 1]) : null));
    }
    checkDownloadPipe(chains, walk);
    if (pipeline.stages.length === 1) followCd(chains[0], walk);
  }
}

function isForkBomb(name: string, body: ShellScript): boolean {
  let calls = 0;
  let spawned = false;
  for (const pipeline of body.pipelines) {
    for (const stage of pipeline.stages) {
      if (!unwrap(stage.words).some((invocation) => invocation.name === name)) continue;
      calls++;
      if (pipeline.background || pipeline.stages.length > 1) spawned = true;
    }
  }
  return calls >= 2 || (calls >= 1 && spawned);
}

// Returns the command's chain of programs (wrappers first) for the pipeline checks.
function walkCommand(command: SimpleCommand, walk: Walk, stdin: string | null): Invocation[] {
  const words = [
    ...command.words,
    ...command.arrayValues,
    ...command.redirects.flatMap(redirectWords),
  ];
  for (const word of words) {
    for (const part of word.parts) {
      if (part.kind === "command") walkSource(part.script, nested(walk));
    }
  }
  for (const redirect of command.redirects) checkRedirect(redirect, walk);
  const chain = unwrap(command.words);
  for (const invocation of chain) {
    const hit = programHit(invocation.name, invocation.args, walk.scope);
    if (hit !== null) walk.hits.push(hit);
    walkInnerScripts(invocation, command, walk, stdin);
  }
  return chain;
}

function redirectWords(redirect: Redirect): Word[] {
  return redirect.heredoc === undefined ? [redirect.target] : [redirect.target, redirect.heredoc];
}

const WRITING_REDIRECTS = new Set([">", ">>", ">|", "<>", "&>", "&>>", ">&"]);

function checkRedirect(redirect: Redirect, walk: Walk): void {
  if (!WRITING_REDIRECTS.has(redirect.op)) return;
  const text = literalWord(redirect.target);
  if (redirect.op === ">&" && text !== null && /^(\d+|-)$/.test(text)) return; // `>&2`
  const path = wordPath(redirect.target, walk.scope);
  if (path !== null && isDataDevice(path)) {
    walk.hits.push({
      rule: "redirect_to_device",
      reason: `Output is redirected onto the device ${path}, overwriting its data`,
    });
  }
}

// The scripts a shell, `su -c`, `eval`, `watch` or a here-document hands to another shell.
function walkInnerScripts(
  invocation: Invocation,
  command: SimpleCommand,
  walk: Walk,
  stdin: string | null,
): void {
  const { name, args } = invocation;
  if (SHELLS.has(name) || name === "su") {
    const { script, readsStdin } = shellScriptOf(args);
    if (script !== null) walkSource(wordSource(script), nested(walk));
    if (SHELLS.has(name) && readsStdin) {
      const fed = command.redirects.find((r) => r.op === "<<" || r.op === "<<-" || r.op === "<<<");
      const text = fed === undefined ? stdin : wordSource(fed.heredoc ?? fed.target);
      if (text !== null) walkSource(text, nested(walk));
    }
  }
  if (name === "eval" || name === "watch") {
    walkSource(
      skipOptions(args, name === "watch" ? WATCH_VALUE_OPTIONS : new Set()).map(wordSource).join(
        " ",
      ),
      nested(walk),
    );
  }
  if (SHELLS.has(name) || SOURCING.has(name)) {
    const words = [...args, ...command.redirects.flatMap(redirectWords)];
    const downloader = words.flatMap((word) => word.parts).map((part) =>
      part.kind === "command" ? downloaderIn(part.script) : null
    ).find((found) => found !== null);
    if (downloader !== undefined) downloadHit(downloader, name, walk);
  }
}

// `bash -lc 'script'`, `sh -e -c script`, `bash -o pipefail -c …`, `bash -s` (reads stdin).
function shellScriptOf(args: Word[]): { script: Word | null; readsStdin: boolean } {
  let dashC = false;
  let dashS = false;
  let i = 0;
  for (; i < args.length; i++) {
    const text = literalWord(args[i]);
    if (text === null || text === "-" || text === "--" || !/^[-+]/.test(text)) break;
    if (text.startsWith("--")) {
      if (text === "--rcfile" || text === "--init-file") i++;
      continue;
    }
    if (text.startsWith("-") && text.includes("c")) dashC = true;
    if (text.includes("s")) dashS = true;
    if (/[oO]/.test(text)) i++; // -o pipefail, -O extglob
  }
  if (["-", "--"].includes(literalWord(args[i] ?? { parts: [] }) ?? "")) i++;
  if (dashC) return { script: args[i] ?? null, readsStdin: false };
  return { script: null, readsStdin: dashS || i >= args.length };
}

function echoedText(chain: Invocation[]): string | null {
  const last = chain.at(-1);
  if (last === undefined || (last.name !== "echo" && last.name !== "printf")) return null;
  const words = last.args.map(literalWord);
  if (words.some((word) => word === null)) return null;
  const text = (words as string[]).filter((word) => !/^-[neE]+$/.test(word)).join(" ");
  return text.replaceAll("\\n", "\n");
}

function checkDownloadPipe(chains: Invocation[][], walk: Walk): void {
  const first = chains.findIndex((chain) => chain.some((inv) => DOWNLOADERS.has(inv.name)));
  if (first === -1) return;
  const downloader = chains[first].find((inv) => DOWNLOADERS.has(inv.name))?.name ?? "";
  for (const chain of chains.slice(first + 1)) {
    const shell = chain.find((inv) => SHELLS.has(inv.name));
    if (shell !== undefined && shellScriptOf(shell.args).script === null) {
      downloadHit(downloader, shell.name, walk);
    }
  }
}

function downloadHit(downloader: string, runner: string, walk: Walk): void {
  walk.hits.push({
    rule: "download_to_shell",
    reason:
      `Downloads a script with ${downloader} and runs it with ${runner} before anyone has read it`,
  });
}

function downloaderIn(source: string): string | null {
  let script: ShellScript;
  try {
    script = parseShell(source);
  } catch {
    return null; // the substitution's own walk reports it as unparseable
  }
  for (const pipeline of script.pipelines) {
    for (const stage of pipeline.stages) {
      const found = unwrap(stage.words).find((inv) => DOWNLOADERS.has(inv.name));
      if (found !== undefined) return found.name;
    }
  }
  return null;
}

function followCd(chain: Invocation[], walk: Walk): void {
  const last = chain.at(-1);
  if (last === undefined || (last.name !== "cd" && last.name !== "pushd")) return;
  const target = last.args.find((arg) => !/^-[LPe@]+$/.test(literalWord(arg) ?? ""));
  walk.scope.cwd = target === undefined
    ? walk.scope.home
    : literalWord(target) === "-"
    ? null
    : wordPath(target, walk.scope);
}
