/**
 * `turn.revert`: restores the files a turn's Runs changed, from the captures the journal
 * recorded, and journals what it wrote (`turn.reverted`, both sides of every file) so that
 * the next `turn.revert` of the same turn reverts the revert.
 *
 * @module
 */
import { dirname } from "node:path";
import {
  type EventPayload,
  type ResultOf,
  RPC_ERROR_CODES,
  RpcError,
  type ValidParamsOf,
} from "@daedalus/protocol";
import { readTurnRevertSource, type StateStore, type TurnRevertSource } from "@daedalus/storage";
import {
  type AccessRules,
  assertAllowed,
  buildAccessRules,
  captureFile,
  writeFileAtomic,
} from "@daedalus/tools";
import {
  type CurrentFile,
  type PlanChange,
  type PlannedFile,
  planRevert,
} from "../revert/revert_plan.ts";
import type { Handled } from "./services.ts";

/** What the revert handler needs. */
export interface RevertHandlerDeps {
  /** The state store. */
  store: StateStore;
  /** Configured credentials: a before-text carrying one is never written back. */
  protectedValues: { find(text: string): boolean };
  /** `<home>/config.yaml`, `auth.json`, `sessions.json`: never written. */
  protectedFiles: readonly string[];
}

/** The `turn.revert` handler. */
export type RevertHandlers = {
  "turn.revert": (
    params: ValidParamsOf<"turn.revert">,
  ) => Promise<Handled<ResultOf<"turn.revert">>>;
};

type Result = ResultOf<"turn.revert">;

/**
 * Builds the handler.
 *
 * @param deps store, protected values and files
 * @returns the handler
 */
export function createRevertHandlers(deps: RevertHandlerDeps): RevertHandlers {
  return {
    "turn.revert": async (params) => {
      const source = deps.store.read((db) => readTurnRevertSource(db, params.turnId));
      if (source === null) throw refusal("turn_not_found", `Turn ${params.turnId} does not exist`);
      const done = source.reverts.find((r) => r.payload.clientRequestId === params.clientRequestId);
      if (done) return { result: replayed(done.seq, done.payload) };
      if (source.active) {
        throw refusal(
          "turn_active",
          "The turn's Run is still active: cancel it or wait until it settles",
        );
      }
      const { direction, changes } = changesToUndo(source);
      const paths = new Map(changes.map((c) => [c.path, absolute(source.workspaceRoot, c.path)]));
      const current = new Map<string, CurrentFile>();
      for (const [path, abs] of paths) current.set(path, await currentFile(abs));
      const forced = params.force === true;
      const withheld = (text: string) => deps.protectedValues.find(text);
      // Writes stay in the thread's workspace and never reach a protected home file; a
      // change elsewhere is reported, checked before anything is written.
      const rules = await buildAccessRules({
        sealed: true,
        mode: "turn.revert",
        readRoots: [],
        writeRoots: source.workspaceRoot === null ? [] : [source.workspaceRoot],
        protectedFiles: deps.protectedFiles,
      });
      const plan = planRevert(changes, current, withheld, forced).map((file): PlannedFile =>
        file.outcome === "reverted" && !mayWrite(paths.get(file.path) ?? "", rules, file.path)
          ? { path: file.path, outcome: "not_revertible" as const, reason: "permission_denied" }
          : file
      );
      const dryRun = params.dryRun === true;
      const files = plan.map(listed);
      // Forced, a conflict is planned as `reverted` (its current content is journaled first).
      const conflicted = plan.some((file) => file.outcome === "conflict");
      const base = { dryRun, forced, direction, files, eventSeq: null };
      if (dryRun || (conflicted && !forced) || !plan.some((f) => f.outcome === "reverted")) {
        return { result: { ...base, applied: false } };
      }
      const written: EventPayload<"turn.reverted">["files"] = [];
      const journal = () =>
        deps.store.write((context) =>
          context.append({
            type: "turn.reverted",
            threadId: source.threadId,
            branchId: source.branchId,
            turnId: params.turnId,
            payload: { direction, forced, clientRequestId: params.clientRequestId, files: written },
          })
        );
      try {
        for (const file of plan) {
          if (file.outcome !== "reverted") continue;
          const abs = paths.get(file.path) ?? "";
          const before = await captureFile(await readOrNull(abs));
          await restore(abs, file);
          const after = await captureFile(await readOrNull(abs));
          written.push({
            path: file.path,
            outcome: "reverted",
            before: { ...before },
            after: { ...after },
          });
        }
      } catch (error) {
        // What was already written stays revertible: it is journaled before the failure
        // reaches the caller.
        if (written.length > 0) journal();
        throw error;
      }
      const committed = journal();
      return { result: { ...base, applied: true, eventSeq: committed.result.seq } };
    },
  };
}

/**
 * What the next revert undoes: the turn's own changes, or, when the last revert of the turn
 * was an undo, that revert's writes (its before-states are the turn's after-states).
 */
function changesToUndo(
  source: TurnRevertSource,
): { direction: "undo" | "redo"; changes: PlanChange[] } {
  const last = source.reverts.at(-1)?.payload;
  if (last?.direction === "undo") {
    return { direction: "redo", changes: last.files as PlanChange[] };
  }
  return {
    direction: "undo",
    changes: source.changes.map((c) => c.payload as unknown as PlanChange),
  };
}

/** Whether the rules let the revert write a path (as `assertAllowed` decides). */
function mayWrite(abs: string, rules: AccessRules, shown: string): boolean {
  try {
    assertAllowed(abs, rules, "write", shown);
    return true;
  } catch {
    return false;
  }
}

function listed(file: PlannedFile): Result["files"][number] {
  return {
    path: file.path,
    outcome: file.outcome,
    reason: "reason" in file ? file.reason ?? null : null,
  };
}

function replayed(seq: number, payload: Record<string, unknown>): Result {
  const files = payload.files as { path: string; outcome: "reverted" }[];
  return {
    applied: true,
    dryRun: false,
    forced: payload.forced === true,
    direction: payload.direction === "redo" ? "redo" : "undo",
    files: files.map((file) => ({ path: file.path, outcome: file.outcome, reason: null })),
    eventSeq: seq,
  };
}

async function restore(abs: string, file: Extract<PlannedFile, { outcome: "reverted" }>) {
  if (!file.target.exists) {
    await Deno.remove(abs).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
    return;
  }
  const info = await Deno.lstat(abs).catch(() => null);
  await Deno.mkdir(dirname(abs), { recursive: true });
  const mode = info?.mode === null || info === null ? undefined : info.mode & 0o7777;
  await writeFileAtomic(abs, new TextEncoder().encode(file.target.text ?? ""), { mode });
}

async function currentFile(abs: string): Promise<CurrentFile> {
  const bytes = await readOrNull(abs);
  return bytes === null
    ? { exists: false, revision: null }
    : { exists: true, revision: (await captureFile(bytes)).revision };
}

async function readOrNull(abs: string): Promise<Uint8Array | null> {
  try {
    return await Deno.readFile(abs);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** The recorded path made absolute against the workspace root (`..` resolved). */
function absolute(root: string | null, path: string): string {
  const joined = path.startsWith("/") ? path : root ? `${root}/${path}` : "";
  if (!joined) return "";
  const parts: string[] = [];
  for (const part of joined.split("/")) {
    if (!part || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return "/" + parts.join("/");
}

function refusal(code: "turn_not_found" | "turn_active", message: string): RpcError {
  return new RpcError(RPC_ERROR_CODES.invalidParams, code, message);
}
