/**
 * The per-program rules of the high-risk classifier: given one program and its words (after
 * wrappers such as `sudo`, `env` or `xargs` were taken off), whether running it is one of
 * the operations issue 14 names. Options are read the way GNU getopt reads them: bundled
 * (`-rf`), in any order, after the operands, long ones by unique prefix (`--recur`), and
 * nothing after `--` is an option.
 *
 * @module
 */
import { containsPath, type PathScope, wordPath } from "./_shell_paths.ts";
import { literalWord, type Word } from "./shell_words.ts";

/** Stable ids of the high-risk rules, most specific first (the order a verdict is picked in). */
export const HIGH_RISK_RULES = [
  "fork_bomb",
  "recursive_delete_root",
  "recursive_delete_home",
  "recursive_delete_workspace",
  "make_filesystem",
  "dd_to_device",
  "redirect_to_device",
  "recursive_chmod_root",
  "recursive_chown_root",
  "download_to_shell",
  "git_force_push",
  "privilege_escalation",
  "command_too_nested",
  "unparseable_command",
] as const;

/** The stable id of a high-risk rule. */
export type HighRiskRule = typeof HIGH_RISK_RULES[number];

/** A rule that matched, with the sentence the user is shown. */
export interface RuleHit {
  /** Which rule. */
  rule: HighRiskRule;
  /** Why, for the user: what the command would do. */
  reason: string;
}

/** The folders a rule protects besides `/`. */
export interface RuleScope extends PathScope {
  /** The workspace root (absolute, normalised). */
  workspaceRoot: string;
}

/** Programs that run a command as another user (root, usually). */
export const PRIVILEGE_PROGRAMS: ReadonlySet<string> = new Set([
  "sudo",
  "sudoedit",
  "doas",
  "su",
  "pkexec",
  "run0",
]);

// Device files writing to which loses nothing: the bit bucket, terminals, pipes, tmpfs.
const HARMLESS_DEVICES = new Set([
  "/dev/null",
  "/dev/zero",
  "/dev/full",
  "/dev/random",
  "/dev/urandom",
  "/dev/tty",
  "/dev/stdin",
  "/dev/stdout",
  "/dev/stderr",
  "/dev/console",
]);
const HARMLESS_DEVICE_FOLDERS = ["/dev/fd/", "/dev/pts/", "/dev/shm/", "/dev/mqueue/"];

/** Whether writing to `path` writes to a device that holds data (a disk, a partition, memory). */
export function isDataDevice(path: string): boolean {
  if (!path.startsWith("/dev/") || HARMLESS_DEVICES.has(path)) return false;
  return !HARMLESS_DEVICE_FOLDERS.some((folder) => path.startsWith(folder));
}

/**
 * The rule one program run matches, if any.
 *
 * @param name The program's file name (`rm`, also for `/bin/rm`).
 * @param args Its words after the program.
 * @param scope Where it runs and what is protected.
 */
export function programHit(name: string, args: Word[], scope: RuleScope): RuleHit | null {
  if (name === "rm") return rmHit(args, scope);
  if (name === "find") return findHit(args, scope);
  if (name === "chmod") return recursiveOnRootHit(args, scope, "recursive_chmod_root", name);
  if (name === "chown" || name === "chgrp") {
    return recursiveOnRootHit(args, scope, "recursive_chown_root", name);
  }
  if (name === "dd") return ddHit(args, scope);
  if (/^mkfs(\..+)?$/.test(name) || name === "mke2fs" || name === "mkswap") {
    return {
      rule: "make_filesystem",
      reason: `${name} formats a disk or partition, destroying the data on it`,
    };
  }
  if (name === "git") return gitHit(args);
  if (PRIVILEGE_PROGRAMS.has(name)) {
    return {
      rule: "privilege_escalation",
      reason:
        `${name} runs a command as another user (usually root), outside the workspace's limits`,
    };
  }
  return null;
}

/** The delete rule for a recursive delete of `path`, or `null` when nothing protected is in it. */
export function deleteHit(path: string, scope: RuleScope): RuleHit | null {
  if (path === "/") {
    return { rule: "recursive_delete_root", reason: "Deletes / recursively: the whole filesystem" };
  }
  if (containsPath(path, scope.home)) {
    return {
      rule: "recursive_delete_home",
      reason: deletes(path, "the home directory", scope.home),
    };
  }
  if (containsPath(path, scope.workspaceRoot)) {
    return {
      rule: "recursive_delete_workspace",
      reason: deletes(path, "the workspace", scope.workspaceRoot),
    };
  }
  return null;
}

function deletes(path: string, what: string, protectedPath: string): string {
  return path === protectedPath
    ? `Deletes ${what} ${path} recursively`
    : `Deletes ${path} recursively, and with it ${what} ${protectedPath}`;
}

// `--recur` is `--recursive` to getopt when no other long option of the program starts so.
function isLongOption(arg: string, option: string, shortest: number): boolean {
  const name = arg.split("=")[0];
  return name.length >= shortest && option.startsWith(name);
}

interface SplitArgs {
  options: string[];
  operands: Word[];
}

function splitArgs(args: Word[]): SplitArgs {
  const split: SplitArgs = { options: [], operands: [] };
  let ended = false;
  for (const arg of args) {
    const text = literalWord(arg);
    if (!ended && text === "--") ended = true;
    else if (!ended && text !== null && text.length > 1 && text.startsWith("-")) {
      split.options.push(text);
    } else split.operands.push(arg);
  }
  return split;
}

function rmHit(args: Word[], scope: RuleScope): RuleHit | null {
  const { options, operands } = splitArgs(args);
  const recursive = options.some((option) =>
    option.startsWith("--") ? isLongOption(option, "--recursive", 3) : /[rR]/.test(option)
  );
  if (!recursive) return null;
  if (options.some((option) => isLongOption(option, "--no-preserve-root", 4))) {
    return {
      rule: "recursive_delete_root",
      reason:
        "Deletes recursively with --no-preserve-root, which lets rm erase the whole filesystem",
    };
  }
  return operandsHit(operands, scope);
}

function operandsHit(operands: Word[], scope: RuleScope): RuleHit | null {
  for (const operand of operands) {
    const path = wordPath(operand, scope);
    const hit = path === null ? null : deleteHit(path, scope);
    if (hit !== null) return hit;
  }
  return null;
}

// Expression words that only steer the walk; any other test (-name, -type, -mtime, `!`, …)
// narrows what is deleted, so `find . -name '*.o' -delete` stays an ordinary clean-up.
const FIND_STEERING = new Set([
  "-depth",
  "-xdev",
  "-mount",
  "-follow",
  "-noleaf",
  "-daystart",
  "-ignore_readdir_race",
  "-noignore_readdir_race",
  "-warn",
  "-nowarn",
  "-true",
  "-print",
  "-print0",
  "-delete",
  "-ls",
]);
const FIND_STEERING_WITH_VALUE = new Set(["-maxdepth", "-mindepth", "-regextype"]);
const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

// `find ROOTS… -delete` or `-exec rm …` without a test: everything under the roots goes.
function findHit(args: Word[], scope: RuleScope): RuleHit | null {
  let i = 0;
  while (i < args.length && /^-[HLP]$|^-O\d$|^-D$/.test(literalWord(args[i]) ?? "")) {
    i += literalWord(args[i]) === "-D" ? 2 : 1;
  }
  const roots: Word[] = [];
  while (i < args.length) {
    const text = literalWord(args[i]);
    if (text !== null && (text.startsWith("-") || text === "(" || text === "!")) break;
    roots.push(args[i++]);
  }
  let deletes = false;
  for (; i < args.length; i++) {
    const text = literalWord(args[i]) ?? "";
    if (FIND_EXEC.has(text)) {
      const program = literalWord(args[i + 1] ?? { parts: [] }) ?? "";
      if (program.split("/").pop() === "rm") deletes = true;
      else return null; // another program sees the files; what it does is its own rule's
      while (i < args.length && !/^[;+]$/.test(literalWord(args[i]) ?? "")) i++;
    } else if (FIND_STEERING_WITH_VALUE.has(text)) i++;
    else if (!FIND_STEERING.has(text)) return null;
    else if (text === "-delete") deletes = true;
  }
  if (!deletes) return null;
  return operandsHit(
    roots.length > 0 ? roots : [{ parts: [{ kind: "text", text: ".", quoted: false }] }],
    scope,
  );
}

function recursiveOnRootHit(
  args: Word[],
  scope: RuleScope,
  rule: "recursive_chmod_root" | "recursive_chown_root",
  name: string,
): RuleHit | null {
  const { options, operands } = splitArgs(args);
  // Only a capital R: `chmod -r` removes read permission.
  const recursive = options.some((option) =>
    option.startsWith("--") ? isLongOption(option, "--recursive", 5) : /^-[A-Za-z]*R/.test(option)
  );
  if (!recursive || !operands.some((operand) => wordPath(operand, scope) === "/")) return null;
  const what = rule === "recursive_chmod_root" ? "permissions" : "owner";
  return { rule, reason: `${name} -R on / changes the ${what} of every file on the system` };
}

function ddHit(args: Word[], scope: RuleScope): RuleHit | null {
  for (const arg of args) {
    const first = arg.parts[0];
    if (first?.kind !== "text" || !first.text.startsWith("of=")) continue;
    const rest: Word = {
      parts: [{ ...first, text: first.text.slice(3) }, ...arg.parts.slice(1)],
    };
    const path = wordPath(rest, scope);
    if (path !== null && isDataDevice(path)) {
      return {
        rule: "dd_to_device",
        reason: `dd writes to the device ${path}, overwriting its data`,
      };
    }
  }
  return null;
}

// Git's own options before the subcommand that take the next word as their value.
const GIT_OPTIONS_WITH_VALUE = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--config-env",
  "--super-prefix",
]);

function gitHit(args: Word[]): RuleHit | null {
  let i = 0;
  while (i < args.length) {
    const text = literalWord(args[i]);
    if (text === null || !text.startsWith("-")) break;
    i += GIT_OPTIONS_WITH_VALUE.has(text) ? 2 : 1;
  }
  if (literalWord(args[i] ?? { parts: [] }) !== "push") return null;
  const { options, operands } = splitArgs(args.slice(i + 1));
  const force =
    options.find((option) =>
      option === "--force" || option.startsWith("--force-with-lease") || option === "--mirror" ||
      (/^-[a-zA-Z0-9]+$/.test(option) && option.includes("f"))
    ) ?? (operands.some((operand) => literalWord(operand)?.startsWith("+")) ? "+refspec" : null);
  if (force === null) return null;
  return {
    rule: "git_force_push",
    reason:
      `git push ${force} overwrites the remote's history: commits there that are not in the local branch are lost`,
  };
}
