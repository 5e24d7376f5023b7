/**
 * `file.preview` and `file.change.get`: read-only views of what runs did to files.
 *
 * @module
 */
import type { FileChange, ResultOf, ValidParamsOf } from "@daedalus/protocol";
import { getThread, readFileChange, type StateStore, threadChangedPath } from "@daedalus/storage";
import { isAbsolute, resolve as resolvePath } from "node:path";
import { assertNotProtected, buildAccessRules, isWithin, mayRead } from "@daedalus/tools";
import { previewFile } from "../files/preview.ts";
import type { Handled } from "./services.ts";

/** What the file handlers need. */
export interface FileHandlerDeps {
  /** The state store. */
  store: StateStore;
  /** Configured credentials: a file carrying one is not previewed. */
  protectedValues: { find(text: string): boolean };
  /** `<home>/config.yaml`, `auth.json`, `sessions.json`: never previewed, through any alias. */
  protectedFiles: readonly string[];
}

/** The `file.*` handlers. */
export type FileHandlers = {
  [M in "file.preview" | "file.change.get"]: (
    params: ValidParamsOf<M>,
  ) => Promise<Handled<ResultOf<M>>>;
};

const NO_CAPTURE = {
  exists: false,
  byteCount: null,
  revision: null,
  encoding: null,
  bom: null,
  newline: null,
  lineCount: null,
};

/**
 * Builds the handlers.
 *
 * @param deps store and protected values
 * @returns the handlers
 */
export function createFileHandlers(deps: FileHandlerDeps): FileHandlers {
  return {
    "file.preview": async (params) => {
      const { thread } = deps.store.read((db) => getThread(db, params.threadId));
      const root = thread.workspace?.rootUri ?? null;
      const absolutePath = resolve(root, params.path);
      const base = { threadId: params.threadId, path: params.path };
      // isWithin: case-insensitive and per drive on Windows, like the file tools' checks.
      const inside = root !== null && absolutePath !== "" && isWithin(root, absolutePath);
      const changedOutside = !inside && absolutePath !== "" &&
        deps.store.read((db) => threadChangedPath(db, params.threadId, absolutePath));
      if (!absolutePath || (!inside && !changedOutside)) {
        return { result: { ...base, status: "unavailable", reason: "outside_workspace" } };
      }
      // Sealed like a read_only tool call: the real file must be in the workspace (or be
      // the very file a run of this thread changed outside it), whatever links say.
      const rules = await buildAccessRules({
        sealed: true,
        mode: "file.preview",
        readRoots: [...(root === null ? [] : [root]), ...(changedOutside ? [absolutePath] : [])],
        writeRoots: [],
        protectedFiles: deps.protectedFiles,
      });
      const page = await previewFile({
        threadId: params.threadId,
        path: params.path,
        absolutePath,
        rules,
        offset: params.offset ?? 1,
        expectedRevision: params.expectedRevision,
      });
      if (page.status === "text" && deps.protectedValues.find(page.content)) {
        return { result: { ...base, status: "unavailable", reason: "protected_content" } };
      }
      return { result: page };
    },
    "file.change.get": async (params) => {
      const stored = deps.store.read((db) => readFileChange(db, params.toolCallItemId));
      const base = { threadId: params.threadId, toolCallItemId: params.toolCallItemId };
      if (!stored || stored.threadId !== params.threadId) {
        return {
          result: { ...base, status: "unavailable", reason: "change_not_recorded" } as FileChange,
        };
      }
      const record = stored.record;
      // A change recorded (before they were refused) on a protected home file stays hidden.
      const { thread } = deps.store.read((db) => getThread(db, params.threadId));
      const changed = resolve(thread.workspace?.rootUri ?? null, String(record.path));
      if (await isProtectedFile(changed, deps.protectedFiles)) {
        return {
          result: { ...base, status: "unavailable", reason: "protected_content" } as FileChange,
        };
      }
      return {
        result: {
          ...base,
          path: String(record.path),
          operation: record.operation === "edit" ? "edit" : "write",
          recordedAt: String(record.recordedAt),
          before: { ...NO_CAPTURE, ...(record.before as object | undefined) },
          after: { ...NO_CAPTURE, ...(record.after as object | undefined) },
          status: "recorded",
          diff: typeof record.diff === "string" ? record.diff : null,
          additions: Number(record.additions ?? 0),
          deletions: Number(record.deletions ?? 0),
        } as FileChange,
      };
    },
  };
}

/**
 * Whether a path is one of the protected files as the tools' access rules see it: as
 * written, by its real path, or by identity (a hard link to one).
 */
async function isProtectedFile(path: string, protectedFiles: readonly string[]): Promise<boolean> {
  if (path === "") return false;
  const rules = await buildAccessRules({
    sealed: false,
    mode: "file.change.get",
    readRoots: [],
    writeRoots: [],
    protectedFiles,
  });
  const real = await Deno.realPath(path).catch(() => path);
  if (!mayRead(path, rules) || !mayRead(real, rules)) return true;
  const info = await Deno.stat(real).catch(() => null);
  if (info === null) return false;
  try {
    assertNotProtected(info, rules, path);
    return false;
  } catch {
    return true;
  }
}

/** An absolute, normalised path (`..` and `.` resolved), or "" when it cannot be. */
function resolve(root: string | null, path: string): string {
  if (isAbsolute(path)) return resolvePath(path);
  return root ? resolvePath(root, path) : "";
}
