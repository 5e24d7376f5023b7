/**
 * The registry of every RPC method's params and result schemas, by name.
 *
 * @module
 */
import { initialize, runtimeMethods } from "./methods/runtime.ts";
import { threadMethods } from "./methods/thread.ts";
import { turnMethods } from "./methods/turn.ts";
import { providerMethods } from "./methods/provider.ts";
import { skillMethods } from "./methods/skill.ts";
import { memoryMethods } from "./methods/memory.ts";
import { workspaceMethods } from "./methods/workspace.ts";
import { settingsMethods } from "./methods/settings.ts";
import { approvalMethods } from "./methods/approval.ts";
import { breakerMethods } from "./methods/breaker.ts";
import { permissionMethods } from "./methods/permission.ts";
import { revertMethods } from "./methods/revert.ts";
import { branchMethods } from "./methods/branch.ts";
import { searchMethods } from "./methods/search.ts";
import { mcpMethods } from "./methods/mcp.ts";
import { gatewayMethods } from "./methods/gateway.ts";
import { toolMethods } from "./methods/tool.ts";
import { channelMethods } from "./methods/channel.ts";
import { agentMethods } from "./methods/agent.ts";

/** Every method a client may call after `initialize`, by name. */
export const METHODS = {
  ...threadMethods,
  ...turnMethods,
  ...branchMethods,
  ...searchMethods,
  ...providerMethods,
  ...skillMethods,
  ...memoryMethods,
  ...workspaceMethods,
  ...settingsMethods,
  ...approvalMethods,
  ...breakerMethods,
  ...permissionMethods,
  ...revertMethods,
  ...mcpMethods,
  ...gatewayMethods,
  ...toolMethods,
  ...channelMethods,
  ...agentMethods,
  ...runtimeMethods,
} as const;

/** `initialize` and every other method. */
export const ALL_METHODS = { initialize, ...METHODS } as const;
