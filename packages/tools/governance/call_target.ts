/**
 * What a tool call touches, as permission rules match it: a path for the file tools, a
 * command line for `process_start`, nothing for the rest (their rules name the tool only).
 * Derived from the call's validated arguments, one small function per kind.
 *
 * @module
 */
import { isAbsolute, relative, resolve, sep } from "node:path";
import { TOOL_PATTERN_KINDS, type ToolId } from "@daedalus/protocol";
import { isWithin, realPathOrNull, resolveToolPath } from "../files/paths.ts";

/** A path a call touches. */
export interface PathTarget {
  /** Always `path`. */
  readonly kind: "path";
  /** The absolute path (the real one, from {@linkcode resolveCallTarget}). */
  readonly path: string;
  /** Whether it lies inside the thread's workspace. */
  readonly insideWorkspace: boolean;
  /**
   * The path relative to the workspace, `/`-separated (`""` for the workspace itself), when
   * inside; relative globs are matched against it. Null outside.
   */
  readonly workspacePath: string | null;
  /**
   * Whether it lies in the thread's own artifacts folder (results over 64 KiB, written for
   * the model to read on): reads there are the runtime's own output and always allowed.
   */
  readonly inArtifacts: boolean;
}

/** Where a call's paths are judged from. */
export interface CallTargetRoots {
  /** The thread's workspace (absolute); relative paths resolve against it. */
  readonly workspaceRoot: string;
  /** The thread's artifacts folder (`<artifactsRoot>/<threadId>`), when it has one. */
  readonly artifactsFolder?: string;
  /**
   * The real paths of both, worked out once per Run by the caller (the gate), so that a
   * call resolves only its own path; absent: resolved on each call.
   */
  readonly realRoots?: { readonly workspace: Promise<string>; readonly artifacts: Promise<string> };
}

/** A command line a call starts. */
export interface CommandTarget {
  /** Always `command`. */
  readonly kind: "command";
  /** The command line as the model wrote it. */
  readonly command: string;
}

/** What a call touches: a path, a command, or nothing a pattern could name. */
export type CallTarget = PathTarget | CommandTarget | { readonly kind: "none" };

/**
 * The target of a call, from its validated arguments, by the path as written (`..`
 * normalised, symlinks not followed): for code that must not touch the file system.
 * The file tools' `path`, or the workspace for `list`/`glob`/`grep` without one;
 * `process_start`'s `command`; nothing for other tools, including ones that are not
 * built in.
 *
 * @param toolId the tool's id
 * @param args the validated arguments
 * @param roots the workspace (and the thread's artifacts folder)
 * @returns the target
 * @example
 * ```ts
 * callTarget("read", { path: "src/a.ts" }, { workspaceRoot: "/ws" });
 * // { kind: "path", path: "/ws/src/a.ts", insideWorkspace: true, workspacePath: "src/a.ts",
 * //   inArtifacts: false }
 * ```
 */
export function callTarget(toolId: string, args: unknown, roots: CallTargetRoots): CallTarget {
  switch (kindOf(toolId)) {
    case "path": {
      const root = resolve(roots.workspaceRoot);
      const path = resolve(root, pathArgument(args));
      const artifacts = roots.artifactsFolder === undefined ? null : resolve(roots.artifactsFolder);
      return pathTarget(path, isWithin(root, path), root, artifacts);
    }
    case "command":
      return commandTarget(args);
    default:
      return { kind: "none" };
  }
}

/**
 * The target of a call with its path's symlinks resolved, as the file tools resolve it:
 * what the call really touches, so a link in the workspace that points outside is outside.
 * Other targets as {@linkcode callTarget}.
 *
 * @param toolId the tool's id
 * @param args the validated arguments
 * @param roots the workspace (and the thread's artifacts folder)
 * @returns the target
 * @throws {ToolError} `invalid_arguments` or `path_too_long` for a path no file tool accepts
 */
export async function resolveCallTarget(
  toolId: string,
  args: unknown,
  roots: CallTargetRoots,
): Promise<CallTarget> {
  if (kindOf(toolId) !== "path") return callTarget(toolId, args, roots);
  const realRoots = roots.realRoots;
  const resolved = await resolveToolPath(
    pathArgument(args),
    roots.workspaceRoot,
    realRoots?.workspace,
  );
  const [realRoot, artifacts] = await Promise.all([
    realRoots?.workspace ?? realPathOr(roots.workspaceRoot),
    realRoots?.artifacts ??
      (roots.artifactsFolder === undefined ? null : realPathOr(roots.artifactsFolder)),
  ]);
  return pathTarget(resolved.realPath, resolved.insideWorkspace, realRoot, artifacts);
}

/**
 * A path's real path, or the path itself when it does not exist (yet): what
 * {@linkcode CallTargetRoots.realRoots} holds.
 *
 * @param path an absolute path
 * @returns its real path
 */
export function realPathOr(path: string): Promise<string> {
  // Synchronous (a few µs of metadata), as the file tools' path checks (files/paths.ts).
  return Promise.resolve(realPathOrNull(path) ?? resolve(path));
}

function kindOf(toolId: string): "path" | "command" | "none" {
  return Object.hasOwn(TOOL_PATTERN_KINDS, toolId) ? TOOL_PATTERN_KINDS[toolId as ToolId] : "none";
}

/** The `path` argument; `list`, `glob` and `grep` default to the workspace itself. */
function pathArgument(args: unknown): string {
  const path = typeof args === "object" && args !== null
    ? (args as Record<string, unknown>).path
    : undefined;
  return typeof path === "string" && path !== "" ? path : ".";
}

function commandTarget(args: unknown): CallTarget {
  const command = typeof args === "object" && args !== null
    ? (args as Record<string, unknown>).command
    : undefined;
  return { kind: "command", command: typeof command === "string" ? command : "" };
}

function pathTarget(
  path: string,
  insideWorkspace: boolean,
  root: string,
  artifacts: string | null,
): PathTarget {
  const inside = relative(root, path);
  const workspacePath = insideWorkspace && !isAbsolute(inside) ? inside.split(sep).join("/") : null;
  return {
    kind: "path",
    path,
    insideWorkspace: workspacePath !== null,
    workspacePath,
    inArtifacts: artifacts !== null && isWithin(artifacts, path),
  };
}
