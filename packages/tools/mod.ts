/**
 * @daedalus/tools — the tool contract and all 23 built-in tools: files and search,
 * processes, long-term memory, sessions (history, threads, sub-agents), and the
 * conversation tools (a question for the user, a visible plan). Tools get a
 * ToolContext from the runtime — ids, workspace, the frozen execution policy, and narrow
 * capabilities (`sessions`, `processes`, `memory`, `memoryFile`) the runtime implements —
 * and never touch storage.
 *
 * Imports only `@daedalus/protocol`. Every call goes through {@linkcode executeTool}, the
 * one wrapper that validates arguments, honours cancellation, maps errors, withholds
 * credentials, moves results over 64 KiB to an artifact file and times the call.
 *
 * @example
 * ```ts
 * import { BUILTIN_TOOLS, executeTool } from "@daedalus/tools";
 *
 * const read = BUILTIN_TOOLS.find((tool) => tool.id === "read")!;
 * const result = await executeTool(read, { path: "README.md", limit: 20 }, context);
 * console.log(result.isError ? result.errorCode : result.content);
 * ```
 *
 * @module
 */
// The wire types the contract names (ids, policies, records) are @daedalus/protocol's,
// re-exported so a reader of this package's docs finds them.
export type * from "@daedalus/protocol";
export {
  type ApprovalAsk,
  createRunMemo,
  defineTool,
  type FileChangeFact,
  type RunMemo,
  type RunToolContext,
  type ToolContext,
  type ToolDefinition,
  ToolError,
  type ToolFacts,
  type ToolParams,
  type ToolParamsIssue,
  type ToolParamsJsonSchemaOptions,
  type ToolParamsResult,
  type ToolProgress,
  type ToolResult,
  type ToolRisk,
} from "./tool.ts";
export { executeTool } from "./execute.ts";
export { isSealedPolicy, permissionRefusal, type SealedPolicy } from "./permission.ts";
export {
  admitCall,
  createRunGate,
  type GateAdmission,
  type GateAdmitted,
  type GateConfigProblem,
  type GateRefused,
  LOOP_DETECTED,
  type RunGate,
  type RunGateOptions,
} from "./gate.ts";
export {
  BUILTIN_TOOLS,
  CONVERSATION_TOOLS,
  FILE_TOOLS,
  PROCESS_TOOLS,
  SESSION_TOOLS,
} from "./builtin.ts";
export { AskUserParams, askUserTool, userQuestion } from "./conversation/ask_user.ts";
export {
  type PlanItem,
  type PlanItemStatus,
  PlanParams,
  planProgress,
  planTool,
} from "./conversation/plan.ts";
export type {
  DelegatedOutcome,
  DelegatedRun,
  DelegationRequest,
  SessionOperations,
  ThreadPage,
  ThreadSlice,
} from "./sessions/session_operations.ts";
export type { ProcessOperations, ProcessStartRequest } from "./processes/process_operations.ts";
export type { MemoryHit, MemoryOperations, MemoryWrite } from "./memory/memory_operations.ts";
export { HistoryReadParams, historyReadTool } from "./sessions/history_read.ts";
export { ThreadListParams, threadListTool } from "./sessions/thread_list.ts";
export { ThreadReadParams, threadReadTool } from "./sessions/thread_read.ts";
export { ThreadCreateParams, threadCreateTool } from "./sessions/thread_create.ts";
export { ThreadRenameParams, threadRenameTool } from "./sessions/thread_rename.ts";
export { ThreadArchiveParams, threadArchiveTool } from "./sessions/thread_archive.ts";
export { ThreadSendParams, threadSendTool } from "./sessions/thread_send.ts";
export { SubagentParams, subagentTool } from "./sessions/subagent.ts";
export { ProcessStartParams, processStartTool } from "./processes/process_start.ts";
export { ProcessReadParams, processReadTool } from "./processes/process_read.ts";
export { ProcessWaitParams, processWaitTool } from "./processes/process_wait.ts";
export { ProcessStopParams, processStopTool } from "./processes/process_stop.ts";
export { ProcessWriteParams, processWriteTool } from "./processes/process_write.ts";
export { ProcessResizeParams, processResizeTool } from "./processes/process_resize.ts";
export { MemoryParams, memoryTool } from "./memory/memory.ts";
export {
  findMemoryFile,
  type FindMemoryFileOptions,
  type FoundMemoryFile,
  MEMORY_FILE_NAME,
  type MemoryFileAccess,
  memoryFileAccess,
  type MemoryFilePlace,
  type MemoryFileSkipReason,
  type MemoryFileText,
  type SkippedMemoryFile,
} from "./memory/memory_file.ts";
export { MEMORY_FILE_DISABLED, MEMORY_FILE_UNAVAILABLE } from "./memory/memory_file_actions.ts";
export { utf8CutPoint } from "./files/utf8_cut.ts";
export { ReadParams, readTool } from "./files/read.ts";
export { WriteParams, writeTool } from "./files/write.ts";
export { EditParams, editTool } from "./files/edit.ts";
export { type ListEntry, ListParams, listTool } from "./files/list.ts";
export { GlobParams, globTool } from "./files/glob.ts";
export { GrepParams, grepTool } from "./files/grep.ts";
// Named apart from the protocol's FileCapture/FileChange (the wire shapes) re-exported above.
export type {
  FileCapture as CapturedFile,
  FileChange as CapturedFileChange,
  NewlineStyle,
} from "./files/capture.ts";
export { captureFile } from "./files/capture.ts";
export { type AtomicWriteOptions, revisionOf, writeFileAtomic } from "./files/atomic_write.ts";
export { isWithin, type PathFlavour, type ResolvedPath, resolveToolPath } from "./files/paths.ts";
export {
  AccessDenied,
  type AccessRules,
  type AccessRulesInput,
  assertAllowed,
  assertNotProtected,
  buildAccessRules,
  type CheckedFile,
  type FileId,
  mayRead,
  openChecked,
  type ProtectedFile,
  readChecked,
} from "./files/access.ts";
export {
  ProcessManager,
  type ProcessManagerOptions,
  type StartProcessOptions,
  type SupervisePolicy,
} from "./processes/process_manager.ts";
export { ProcessError } from "./processes/process_error.ts";
// The OS seam a ProcessManager takes (`platform`), for a fake in tests or another OS.
export type { ProcessPlatform, SpawnSpec, TreeSignal } from "./processes/_platform.ts";
// When a live process started (`ps`): how custody of a process across a restart is proven.
export { observeStartTime } from "./processes/_spawn.ts";
// Governance (issue 14): the policy gate's parts (gate.ts runs them on every call), and the
// rule an approval's allow_thread / allow_always answer adds.
export { approvalRule } from "./governance/approval_rule.ts";
export { GovernanceError } from "./governance/governance_error.ts";
export { canonicalJson } from "./governance/canonical_json.ts";
export {
  type BreakerOutcome,
  breakerOutcome,
  countsAsFailure,
  FAILURE_CODES,
  NON_FAILURE_CODES,
} from "./governance/failure_codes.ts";
export {
  type BreakerAdmission,
  type BreakerAdmitted,
  type BreakerRefused,
  type BreakerSnapshot,
  type BreakerState,
  type BreakerTransition,
  type CircuitBreakers,
  type CircuitBreakersOptions,
  createCircuitBreakers,
} from "./governance/circuit_breaker.ts";
export {
  createLoopDetector,
  type LoopCall,
  type LoopDetector,
  type LoopDetectorOptions,
  type LoopPattern,
  type LoopVerdict,
} from "./governance/loop_detector.ts";
export {
  compileRuleSet,
  decide,
  type PermissionCall,
  PermissionRuleError,
  type PermissionRuleSet,
  permissionRuleSet,
  type PermissionRuleSource,
  type PermissionVerdict,
} from "./governance/permission_rules.ts";
export {
  DEFAULT_PERMISSION_PRESET,
  PERMISSION_PRESET_RULES,
  type PermissionPresetRules,
} from "./governance/presets.ts";
export {
  type CallTarget,
  callTarget,
  type CallTargetRoots,
  type CommandTarget,
  type PathTarget,
  resolveCallTarget,
} from "./governance/call_target.ts";
export { type CommandWords, simpleCommands } from "./governance/command_words.ts";
export {
  classifyHighRisk,
  type HighRiskInput,
  HighRiskInputError,
  type HighRiskVerdict,
} from "./governance/high_risk.ts";
export { HIGH_RISK_RULES, type HighRiskRule } from "./governance/high_risk_rules.ts";
export {
  type FunctionDefinition,
  literalWord,
  parseShell,
  type Pipeline,
  type Redirect,
  ShellParseError,
  type ShellScript,
  type SimpleCommand,
  type Word,
  type WordPart,
  wordSource,
} from "./governance/shell_words.ts";
