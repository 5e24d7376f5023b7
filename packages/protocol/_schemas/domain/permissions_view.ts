/**
 * config.yaml's `permissions` section as the `permission.*` methods show it: every field
 * with its default filled in, and each rule with its index (what `permission.removeRule`
 * names).
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";
import {
  HighRiskCommands,
  PermissionDecision,
  PermissionPreset,
  PermissionRuleTool,
} from "./permission_rule.ts";
import { PERMISSION_RULES_MAX_COUNT } from "../../limits.ts";

export const IndexedPermissionRule = z.strictObject({
  /** The rule's position in config.yaml's list (0 first; later rules win). */
  index: z.int().min(0).max(PERMISSION_RULES_MAX_COUNT - 1),
  tool: PermissionRuleTool,
  pattern: z.string().optional(),
  decision: PermissionDecision,
}).register(docs, {
  description: "A stored permission rule with its position in the list (0 is checked first, " +
    "so a higher index wins over a lower one).",
});

export const PermissionsView = z.looseObject({
  preset: PermissionPreset,
  highRiskCommands: HighRiskCommands,
  rules: z.array(IndexedPermissionRule).max(PERMISSION_RULES_MAX_COUNT),
}).register(docs, {
  description: "config.yaml's permissions with defaults filled in: the preset new turns " +
    "start from (default `ask`), what high-risk commands get (default `ask`) and the rules, " +
    "in order.",
});
