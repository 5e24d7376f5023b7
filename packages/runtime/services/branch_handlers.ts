/**
 * `branch.create`, `branch.list` and `thread.set_active_branch`: forks of a thread at a
 * turn (Edit and resend, Regenerate) and the branch a thread shows. Workspace files are
 * not forked: `turn.revert` is the tool for them.
 *
 * @module
 */
import type { ResultOf, ValidParamsOf } from "@daedalus/protocol";
import { createBranch, listBranches, setActiveBranch, type StateStore } from "@daedalus/storage";
import type { Handled } from "./services.ts";

/** What the branch handlers need. */
export interface BranchHandlerDeps {
  /** The state store. */
  store: StateStore;
  /** Refuses configured credentials in request content (a clientRequestId is stored). */
  protectedValues: { assertSafe(value: unknown, field: string): void };
}

type Handler<M extends "branch.create" | "branch.list" | "thread.set_active_branch"> = (
  params: ValidParamsOf<M>,
) => Promise<Handled<ResultOf<M>>>;

/** The branch handlers. */
export type BranchHandlers = {
  "branch.create": Handler<"branch.create">;
  "branch.list": Handler<"branch.list">;
  "thread.set_active_branch": Handler<"thread.set_active_branch">;
};

/**
 * Builds the handlers.
 *
 * @param deps the store and the protected values
 * @returns the handlers
 */
export function createBranchHandlers(deps: BranchHandlerDeps): BranchHandlers {
  const { store } = deps;
  return {
    "branch.create": (params) => {
      deps.protectedValues.assertSafe(params, "");
      const { result } = createBranch(store, params);
      return Promise.resolve({ result: { branch: result.branch, event: result.event } });
    },
    "branch.list": (params) =>
      Promise.resolve({ result: store.read((db) => listBranches(db, params.threadId)) }),
    "thread.set_active_branch": (params) => {
      const committed = setActiveBranch(store, params.threadId, params.branchId);
      return Promise.resolve({
        result: { ...committed.result, event: committed.events[0] ?? null },
      });
    },
  };
}
