/**
 * The public message schemas, under the names mod.ts exports them by. For each one,
 * `deno task protocol:generate` writes a type and a typed export of the same name into
 * `types.gen.ts`; its doc comment is the description registered in `docs`.
 *
 * @module
 */
export {
  ApprovalId,
  BranchId,
  Cursor,
  Identifier,
  ItemId,
  LocalDate,
  MemoryId,
  ProcessId,
  RunId,
  ThreadId,
  Timestamp,
  TurnId,
  WorkspaceId,
} from "./ids.ts";
export {
  ApprovalDecision,
  ApprovalReasonCode,
  ApprovalStatus,
  ExecutionPolicy,
  ItemKind,
  ItemRole,
  ItemStatus,
  MemoryKind,
  MemorySourceKind,
  MemoryState,
  ModelCallPurpose,
  ProcessState,
  ReasoningEffort,
  RunStatus,
  SettledStatus,
  ToolId,
  ToolRisk,
  TurnStatus,
} from "./enums.ts";
export {
  ErrorReasonCode,
  FileUnavailableReason,
  MemoryReasonCode,
  ProcessErrorCode,
  ProviderFailureCategory,
  RunFailureClass,
  RunReasonCode,
} from "./reason_codes.ts";
export { RpcErrorData, RpcErrorObject } from "./errors.ts";
export {
  JsonRpcFailure,
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcSuccess,
} from "./jsonrpc.ts";
export { Branch, Thread, ThreadTitle, Workspace } from "./domain/thread.ts";
export { GatewayThreadSource, ThreadSource } from "./domain/thread_source.ts";
export { MessageSearchResult, SearchHighlight } from "./domain/search.ts";
export {
  Attachment,
  AttachmentInput,
  AttachmentInputs,
  Item,
  RunSummary,
  RunUsageTotals,
  RunWithItems,
  Turn,
  TurnSiblings,
  UploadedAttachment,
} from "./domain/item.ts";
export {
  ContextWindow,
  DiscoveredModel,
  Model,
  ModelInput,
  ModelRef,
  Provider,
  ProviderId,
} from "./domain/provider.ts";
export { Skill, SkillDiagnostic, SkillName } from "./domain/skill.ts";
export {
  AgentId,
  AgentInfo,
  AgentMemory,
  AgentModel,
  AgentProfile,
  FrozenAgent,
} from "./domain/agent.ts";
export {
  McpPermission,
  McpServer,
  McpServerName,
  McpServerState,
  McpServerSummary,
  McpTool,
  McpTransport,
} from "./domain/mcp.ts";
export {
  ChannelKind,
  ChannelOutboxFailure,
  ChannelOwner,
  ChannelState,
  ChannelStatus,
  ChannelStatusSummary,
} from "./domain/channel.ts";
export { Settings } from "./domain/settings.ts";
export {
  HighRiskCommands,
  PermissionDecision,
  PermissionPreset,
  PermissionRule,
  PermissionRules,
  PermissionRuleTool,
  PermissionSettings,
} from "./domain/permission_rule.ts";
export { IndexedPermissionRule, PermissionsView } from "./domain/permissions_view.ts";
export {
  ClientTool,
  ContentHash,
  RunConfig,
  RunConfigPart,
  RunConfigPartKind,
  RunConfigPartRefs,
  RunConfigRecord,
  RunIdentity,
  RunSkill,
  RunToolSchema,
} from "./domain/run_config.ts";
export {
  Memory,
  MemoryContent,
  MemoryProvenance,
  MemoryScope,
  MemorySummary,
} from "./domain/memory.ts";
export {
  FileCapture,
  FileChange,
  FileChangeRecorded,
  FileChangeUnavailable,
  FileOperation,
  FilePreview,
  FilePreviewText,
  FilePreviewUnavailable,
} from "./domain/file.ts";
export {
  RevertCapture,
  RevertedFile,
  RevertFile,
  RevertFileOutcome,
  TurnRevertResult,
} from "./domain/revert.ts";
export {
  CompactionOverride,
  CompactionSettings,
  CompactionThreshold,
  ContextUse,
  FrozenCompaction,
  ThreadCompaction,
  ThreadSettings,
} from "./domain/compaction.ts";
export { ProcessOutputPage, ProcessRecord } from "./domain/process.ts";
export { Approval, ApprovalMessage, QuestionAnswer, UserQuestion } from "./domain/approval.ts";
export { BudgetKind, BudgetReached, ModelPrice, RunBudget } from "./domain/budget.ts";
export { BreakerSnapshot } from "./methods/breaker.ts";
export { ToolSummary } from "./methods/tool.ts";
export { GatewayKey, GatewayKeyId, GatewayKeyProfile } from "./methods/gateway.ts";
export { DailyUsageBucket, TokenUsage, UsageSummary } from "./domain/usage.ts";
export { EventEnvelope, EventNotification } from "./events.ts";
export { GoldenCase, GoldenStep, GoldenTrace } from "./golden_trace.ts";
export {
  CanonicalCustom,
  CanonicalDone,
  CanonicalError,
  CanonicalEvent,
  CanonicalFileOutput,
  CanonicalInterrupt,
  CanonicalNodeLifecycle,
  CanonicalReasoningDelta,
  CanonicalSubAgentEnd,
  CanonicalSubAgentStart,
  CanonicalTextDelta,
  CanonicalToolCallEnd,
  CanonicalToolCallStart,
  CanonicalUsage,
} from "./canonical/event.ts";
