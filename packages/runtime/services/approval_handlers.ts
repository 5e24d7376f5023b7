/**
 * `approval.respond` and `approval.list`: the user's answers to tool calls that wait.
 * An answer resolves the approval in the store (the Run turns running again, a denial
 * gives the model the user's words as the call's error) and then queues the Run to go on
 * from the journal. `allow_always` first appends the approval's rule to config.yaml, so a
 * config that cannot be written leaves the approval pending and nothing changed. An
 * `ask_user` question is answered the same way, with `answer` (the store records it as
 * the call's result).
 *
 * @module
 */
import type { PermissionRule, ResultOf, ValidParamsOf } from "@daedalus/protocol";
import {
  listApprovals,
  readApproval,
  readPermissions,
  resolveApproval,
  type StateStore,
} from "@daedalus/storage";
import { appendPermissionRule } from "./permission_handlers.ts";
import type { Scheduler } from "../scheduler/scheduler.ts";
import type { Handled } from "./services.ts";

/** The `approval.*` handlers. */
export type ApprovalHandlers = {
  [M in "approval.respond" | "approval.list"]: (
    params: ValidParamsOf<M>,
  ) => Promise<Handled<ResultOf<M>>>;
};

/** What the handlers need. */
export interface ApprovalHandlerDeps {
  /** The state store. */
  store: StateStore;
  /** Resumes an answered Run. */
  scheduler: Pick<Scheduler, "resume">;
  /** `<home>/config.yaml`, where `allow_always` rules go. */
  configPath: string;
  /** Refuses params carrying a configured credential. */
  protectedValues: { assertSafe(value: unknown, field: string): void };
}

/**
 * Builds the handlers.
 *
 * @param deps store, scheduler, config path
 * @returns the handlers
 */
export function createApprovalHandlers(deps: ApprovalHandlerDeps): ApprovalHandlers {
  const { store } = deps;
  return {
    "approval.respond": async (params) => {
      // The message is stored and shown to the model: no credential in it.
      deps.protectedValues.assertSafe(params, "");
      const pending = store.read((db) => readApproval(db, params.approvalId));
      if (
        params.decision === "allow_always" && pending?.status === "pending" &&
        pending.decisions.includes("allow_always") && pending.rule !== null
      ) {
        await appendConfigRule(deps.configPath, pending.rule);
      }
      const committed = resolveApproval(store, {
        approvalId: params.approvalId,
        decision: params.decision,
        ...(params.message !== undefined ? { message: params.message } : {}),
        ...(params.answer !== undefined ? { answer: params.answer } : {}),
        ...(params.clientRequestId !== undefined
          ? { clientRequestId: params.clientRequestId }
          : {}),
      });
      const approval = committed.result;
      // A retried answer wrote nothing: its Run was resumed by the first.
      const answered = committed.events.length > 0;
      return {
        result: { approval },
        ...(answered
          ? { afterResponse: () => deps.scheduler.resume(approval.runId, approval.threadId) }
          : {}),
      };
    },
    "approval.list": (params) =>
      Promise.resolve({
        result: {
          approvals: store.read((db) =>
            listApprovals(db, {
              ...(params.threadId !== undefined ? { threadId: params.threadId } : {}),
              ...(params.status !== undefined ? { status: params.status } : {}),
            })
          ),
        },
      }),
  };
}

/** Appends an allow rule to config.yaml's permissions, once (the same rule is not repeated). */
async function appendConfigRule(configPath: string, rule: PermissionRule): Promise<void> {
  const permissions = await readPermissions(configPath);
  const rules = permissions.rules ?? [];
  const same = (other: PermissionRule) =>
    other.tool === rule.tool && other.pattern === rule.pattern && other.decision === rule.decision;
  // Already there and last: nothing to add. Elsewhere, a later rule might override it.
  if (rules.length > 0 && same(rules[rules.length - 1]!)) return;
  // One serialized update of the file (a permission.addRule meanwhile is not lost).
  await appendPermissionRule(configPath, rule);
}
