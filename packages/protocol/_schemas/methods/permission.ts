/**
 * `permission.*`: config.yaml's permission settings (the default preset, high-risk
 * commands, the rules every Run checks after its preset). A change applies to the next
 * Run; Runs already started keep the rules they read.
 *
 * @module
 */
import { z } from "zod";
import { method } from "./_define.ts";
import { Identifier } from "../ids.ts";
import { HighRiskCommands, PermissionPreset, PermissionRule } from "../domain/permission_rule.ts";
import { PermissionsView } from "../domain/permissions_view.ts";
import { PERMISSION_RULES_MAX_COUNT } from "../../limits.ts";

/** Methods of the `permission` namespace. */
export const permissionMethods = {
  "permission.read": method({
    description: "Reads the permission settings of config.yaml, defaults filled in",
    params: z.strictObject({}),
    result: PermissionsView,
  }),
  "permission.update": method({
    description: "Changes the default preset and/or what high-risk commands get; the rules " +
      "stay as they are",
    params: z.strictObject({
      preset: PermissionPreset.optional(),
      highRiskCommands: HighRiskCommands.optional(),
    }),
    result: PermissionsView,
  }),
  "permission.addRule": method({
    description: "Appends a rule (so it wins over every earlier one); validated like " +
      "config.yaml's rules, and refused with nothing stored changed. Idempotent on " +
      "clientRequestId",
    params: z.strictObject({
      rule: PermissionRule,
      clientRequestId: Identifier.optional(),
    }),
    result: PermissionsView,
  }),
  "permission.removeRule": method({
    description: "Removes the rule at index, which must still be the given rule (else " +
      "`permission_rule_changed`, nothing removed)",
    params: z.strictObject({
      index: z.int().min(0).max(PERMISSION_RULES_MAX_COUNT - 1),
      rule: PermissionRule,
    }),
    result: PermissionsView,
  }),
};
