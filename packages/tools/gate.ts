/**
 * The policy gate of every tool call, after argument validation: permission rules, the
 * high-risk command check, loop detection and the tool's circuit breaker, in that order,
 * each refusal a tool error with a stable code. A verdict that asks the user (a rule's `ask`,
 * a high-risk command, a loop pause) is an approval when the Run's gate was built with
 * `askUser` (the runtime: the result carries `awaitsApproval` and the Run waits for the
 * answer); without it the call is refused (`approval_required`, `high_risk_command`,
 * `loop_detected`), as a caller that cannot ask must.
 *
 * A call that writes a file other than by its own path — the `memory` tool's MEMORY.md
 * `file_append` — is judged as a `write` of that file as well, and the stricter verdict
 * stands (`governance/memory_file_write.ts`).
 *
 * A Run's {@linkcode RunGate} is built once ({@linkcode createRunGate}): its rule set from
 * the Run's preset (its frozen execution policy) plus config.yaml's `permissions.rules`,
 * its own loop detector, and the runtime's breakers. Without a gate (a context built by a
 * test or the sandbox Worker) only the preset's rules apply.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { isWithin } from "./files/paths.ts";
import {
  APPROVAL_SUMMARY_MAX_CHARS,
  type ApprovalReasonCode,
  type ExecutionPolicy,
  type HighRiskCommands,
  type PermissionDecision,
  type PermissionRule,
  TOOL_PATTERN_KINDS,
} from "@daedalus/protocol";
import type { ToolContext, ToolDefinition, ToolResult } from "./tool.ts";
import { ToolError } from "./tool.ts";
import { permissionRefusal } from "./permission.ts";
import {
  decide,
  PermissionRuleError,
  type PermissionRuleSet,
  permissionRuleSet,
  type PermissionVerdict,
} from "./governance/permission_rules.ts";
import {
  type CallTarget,
  callTarget,
  realPathOr,
  resolveCallTarget,
} from "./governance/call_target.ts";
import { GovernanceError } from "./governance/governance_error.ts";
import { approvalRule } from "./governance/approval_rule.ts";
import { classifyHighRisk, type HighRiskVerdict } from "./governance/high_risk.ts";
import {
  createLoopDetector,
  type LoopCall,
  type LoopDetector,
  type LoopDetectorOptions,
  type LoopVerdict,
} from "./governance/loop_detector.ts";
import type { BreakerAdmitted, CircuitBreakers } from "./governance/circuit_breaker.ts";
import { breakerOutcome } from "./governance/failure_codes.ts";
import { memoryFileWrite } from "./governance/memory_file_write.ts";

/** What {@linkcode createRunGate} builds a Run's gate from. */
export interface RunGateOptions {
  /** The Run's frozen execution policy: the preset of the same name. */
  readonly executionPolicy: ExecutionPolicy;
  /** config.yaml's `permissions.rules` (unvalidated is fine: each rule is checked). */
  readonly configRules?: readonly unknown[];
  /**
   * The thread's rules (what `allow_thread` answers added), checked after config.yaml's:
   * the thread's own decision is the more specific one.
   */
  readonly threadRules?: readonly PermissionRule[];
  /**
   * Why config.yaml's permissions could not be read (the file is broken): every call of the
   * Run is refused with `permission_config_invalid` and this text.
   */
  readonly configProblem?: string;
  /** config.yaml's `permissions.highRiskCommands` (default `ask`). */
  readonly highRiskCommands?: HighRiskCommands;
  /** The runtime's breakers, keyed by tool id or `mcp:<server>` (absent: no breaker stage). */
  readonly breakers?: CircuitBreakers;
  /** Options of the Run's loop detector (tests lower the limits). */
  readonly loop?: LoopDetectorOptions;
  /**
   * The Run's loop detector when it has one already: a Run that waited for an approval and
   * goes on keeps counting (a denial does not wipe what the model repeated). Absent: a new
   * one from `loop`.
   */
  readonly loops?: LoopDetector;
  /** The home folder the high-risk rules protect (default: `HOME`, `USERPROFILE` on Windows). */
  readonly homeDir?: string;
  /**
   * Whether a verdict that asks becomes an approval (the result's `awaitsApproval`) instead of
   * a refusal: true where someone can answer (the runtime).
   */
  readonly askUser?: boolean;
}

/** The gate of one Run: built once, consulted before and told after every call. */
export interface RunGate {
  /** The Run's policy (named in refusals). */
  readonly executionPolicy: ExecutionPolicy;
  /** The compiled rules, or why config.yaml's rules cannot be used (every call is refused). */
  readonly rules: PermissionRuleSet | GateConfigProblem;
  /** What a high-risk command gets. */
  readonly highRiskCommands: HighRiskCommands;
  /** The Run's loop detector. */
  readonly loops: LoopDetector;
  /** The runtime's breakers, or null. */
  readonly breakers: CircuitBreakers | null;
  /** The home folder the high-risk rules protect. */
  readonly homeDir: string;
  /** Whether verdicts that ask become approvals. */
  readonly askUser: boolean;
}

/** Why a Run's rules could not be built: every call of the Run is refused with it. */
export interface GateConfigProblem {
  /** `invalid_permission_rule` (a rule is wrong) or `permission_config_invalid`. */
  readonly code: string;
  /** What is wrong, naming the rule or the file. */
  readonly message: string;
}

/** A call the gate let through: run it, then hand its result to `finish`. */
export interface GateAdmitted {
  /** Let through. */
  readonly admitted: true;
  /** Records the call's result with the loop detector and the breaker. */
  finish(result: ToolResult): void;
}

/** A call the gate refused: its result is the refusal. */
export interface GateRefused {
  /** Refused. */
  readonly admitted: false;
  /** The tool error the model reads (`errorCode` is the stage's reason code). */
  readonly result: ToolResult;
}

/** The answer of {@linkcode admitCall}. */
export type GateAdmission = GateAdmitted | GateRefused;

/** The reason code of a loop pause: the runtime fails the Run with it. */
export const LOOP_DETECTED = "loop_detected";

/**
 * Builds a Run's gate. Never throws for bad config rules: the problem is kept and every
 * call of the Run is refused with `invalid_permission_rule` naming the rule, or
 * `permission_config_invalid` (failing closed — a deny rule the user wrote must not
 * silently vanish).
 *
 * @param options the Run's policy, config rules, breakers
 * @returns the gate
 * @throws {GovernanceError} `loop_option_invalid` for bad loop options (a programming error)
 * @example
 * ```ts
 * const gate = createRunGate({ executionPolicy: "workspace_write", configRules: [] });
 * ```
 */
export function createRunGate(options: RunGateOptions): RunGate {
  let rules: PermissionRuleSet | GateConfigProblem;
  if (options.configProblem !== undefined) {
    rules = { code: "permission_config_invalid", message: options.configProblem };
  } else {
    try {
      rules = permissionRuleSet({
        preset: options.executionPolicy,
        rules: [...(options.configRules ?? [])] as PermissionRule[],
      }, [{ origin: "thread", rules: options.threadRules ?? [] }]);
    } catch (error) {
      if (!(error instanceof PermissionRuleError)) throw error;
      rules = { code: error.code, message: error.message };
    }
  }
  return {
    executionPolicy: options.executionPolicy,
    rules,
    highRiskCommands: options.highRiskCommands ?? "ask",
    loops: options.loops ?? createLoopDetector(options.loop),
    breakers: options.breakers ?? null,
    homeDir: options.homeDir ?? userHome(),
    askUser: options.askUser ?? false,
  };
}

/**
 * `HOME` (`USERPROFILE` on Windows), as the storage finds the user's home; `""` when unset
 * or unreadable, and then every command is judged high-risk (the classifier refuses a
 * relative home, and a command it cannot judge is not let through).
 */
function userHome(): string {
  try {
    return Deno.env.get(Deno.build.os === "windows" ? "USERPROFILE" : "HOME") ?? "";
  } catch {
    return "";
  }
}

/** The preset-only rule sets of contexts without a gate, compiled once per policy. */
const presetRules = new Map<ExecutionPolicy, PermissionRuleSet>();

function presetRuleSet(policy: ExecutionPolicy): PermissionRuleSet {
  let ruleSet = presetRules.get(policy);
  if (ruleSet === undefined) {
    ruleSet = permissionRuleSet({ preset: policy });
    presetRules.set(policy, ruleSet);
  }
  return ruleSet;
}

/**
 * Runs a validated call through the gate's stages. Never throws.
 *
 * @param tool the tool
 * @param args the validated arguments
 * @param context the call's context (its `gate`, workspace, policy)
 * @returns the admission, or the refusal as the call's result
 * @example
 * ```ts
 * const admission = await admitCall(readTool, { path: "a.ts" }, context);
 * if (!admission.admitted) return admission.result;
 * ```
 */
export async function admitCall<P>(
  tool: ToolDefinition<P>,
  args: P,
  context:
    & Pick<
      ToolContext,
      "workspaceRoot" | "artifactsRoot" | "threadId" | "executionPolicy" | "gate" | "approved"
    >
    & Partial<Pick<ToolContext, "memoryFile" | "protectedFiles">>,
): Promise<GateAdmission> {
  const gate = context.gate;
  const rules = gate?.rules ?? presetRuleSet(context.executionPolicy);
  if ("code" in rules) {
    return failure(
      rules.code,
      `${rules.message}. Every tool call of this Run is refused until config.yaml's ` +
        "permissions section is fixed",
    );
  }
  const policy = gate?.executionPolicy ?? context.executionPolicy;
  let target = await targetOf(tool.id, args, context);
  if ("refused" in target) return target.refused;
  let verdict = unlisted(
    decide(rules, {
      toolId: tool.id,
      risk: tool.risk,
      target,
      ...(tool.mcp ? { mcp: tool.mcp } : {}),
    }),
    tool,
    policy,
  );
  // What a refusal or a question names: the tool, or the write it makes (a MEMORY.md append).
  let judged: Judged = { tool, args, ruleToolId: tool.id };
  const written = await memoryFileWrite(tool, args, context);
  if (written !== null) {
    const writeTarget = await targetOf("write", written.args, context);
    if ("refused" in writeTarget) return writeTarget.refused;
    const writeVerdict = decide(rules, { toolId: "write", risk: "write", target: writeTarget });
    if (STRICTNESS[writeVerdict.decision] > STRICTNESS[verdict.decision]) {
      verdict = writeVerdict;
      target = writeTarget;
      judged = { tool: { ...tool, risk: "write" }, args: written.args, ruleToolId: "write" };
    }
  }
  if (verdict.decision === "deny") {
    return failure(
      "permission_denied",
      denial(judged.tool, policy, shownPath(judged.args, context), verdict),
    );
  }
  const approved = context.approved;
  // One question per call: a high-risk command a rule also asks about is asked as high-risk.
  const risk = gate !== undefined && target.kind === "command" &&
      gate.highRiskCommands === "ask" && approved !== "high_risk_command"
    ? highRisk(target.command, args, context.workspaceRoot, gate.homeDir)
    : null;
  if (risk !== null) {
    return asking(gate, tool, target, "high_risk_command", {
      code: "high_risk_command",
      content: `high_risk_command: ${risk.reason} (${risk.rule}). It needs the user's approval`,
    });
  }
  if (
    verdict.decision === "ask" && approved !== "permission_ask" &&
    approved !== "high_risk_command"
  ) {
    return asking(gate, judged.tool, target, "permission_ask", {
      code: "approval_required",
      content: `${tool.id} needs the user's approval (${ruleName(verdict)})`,
    }, judged.ruleToolId);
  }
  if (gate === undefined) return { admitted: true, finish: () => {} };
  const loopCall: LoopCall = { tool: tool.id, args, readOnly: !tool.mutating };
  // The user saw the repetition and let the call run: the detector counts afresh from it.
  if (approved === "loop_detected") gate.loops.reset();
  let loop: LoopVerdict;
  try {
    loop = gate.loops.before(loopCall);
  } catch (error) {
    // Arguments JSON cannot carry (validated arguments always can): refuse, do not throw.
    if (!(error instanceof GovernanceError)) throw error;
    return failure(error.code, error.message);
  }
  if (loop.verdict === "refuse") return failure(loop.code, loop.message);
  if (loop.verdict === "pause") {
    return asking(gate, tool, target, "loop_detected", {
      code: LOOP_DETECTED,
      content: loop.message,
    });
  }
  if (loop.verdict === "reuse") return { admitted: false, result: loop.result };
  let admission: BreakerAdmitted | null = null;
  if (gate.breakers !== null) {
    // One breaker per MCP server: a server that stopped answering fails all its tools.
    const breaker = gate.breakers.admit(tool.mcp ? `mcp:${tool.mcp.server}` : tool.id);
    if (!breaker.admitted) return failure(breaker.reasonCode, breaker.message);
    admission = breaker;
  }
  const breakers = gate.breakers;
  return {
    admitted: true,
    finish: (result) => {
      // `before` accepted this very call, so `after` cannot find fault with it.
      if (!waitingOnRunningWork(tool.id, result)) gate.loops.after(loopCall, result);
      if (breakers !== null && admission !== null) {
        breakers.record(admission, breakerOutcome(result));
      }
    },
  };
}

/** How strict a decision is: a call judged twice gets the stricter one. */
const STRICTNESS: Readonly<Record<PermissionDecision, number>> = { allow: 0, ask: 1, deny: 2 };

/** The call as a refusal or question names it, and the tool an allow rule names. */
interface Judged {
  readonly tool: Pick<ToolDefinition<unknown>, "id" | "risk" | "mcp">;
  readonly args: unknown;
  readonly ruleToolId: string;
}

/**
 * What a call touches, its path's links resolved as the file tools resolve them; a path no
 * file tool accepts is the call's refusal.
 */
async function targetOf(
  toolId: string,
  args: unknown,
  context: Pick<ToolContext, "workspaceRoot" | "artifactsRoot" | "threadId" | "gate">,
): Promise<CallTarget | { refused: GateRefused }> {
  const gate = context.gate;
  const artifactsFolder = join(context.artifactsRoot, context.threadId);
  try {
    return await resolveCallTarget(toolId, args, {
      workspaceRoot: context.workspaceRoot,
      artifactsFolder,
      ...(gate ? { realRoots: realRootsOf(gate, context.workspaceRoot, artifactsFolder) } : {}),
    });
  } catch (error) {
    if (error instanceof ToolError) return { refused: failure(error.code, error.message) };
    // The file system would not say (a Worker's narrowed permissions, an I/O error): judge
    // the path as written; the tool's own access rules check the real one when it runs.
    return callTarget(toolId, args, { workspaceRoot: context.workspaceRoot, artifactsFolder });
  }
}

/** Tools that watch a command: asking again while it runs is waiting, not looping. */
const COMMAND_WATCHERS: ReadonlySet<string> = new Set(["process_wait", "process_read"]);

/**
 * Whether a call watched work that is still going on: a command still running, or another
 * thread with a Run still active (a parent collecting a sub-agent's answer). A silent build
 * answers every `process_wait` alike ("still running", no output) for as long as it takes,
 * and so does `thread_read` of a busy sub-agent; such calls are not counted as repeats, or
 * supervising long work would trip the loop detector. Once the work has ended, alike
 * answers count again.
 */
function waitingOnRunningWork(toolId: string, result: ToolResult): boolean {
  if (result.isError === true) return false;
  if (COMMAND_WATCHERS.has(toolId)) return result.details?.state === "running";
  return toolId === "thread_read" && result.details?.activeRun === true;
}

/**
 * A tool that is not built in (a test's probe, an MCP tool) that no rule matched keeps what
 * its mode gave it before rules: its risk class decides; one with a `defaultDecision` (an
 * MCP server's configured `permission`) gets that instead of the preset's. The presets name the
 * built-in tools one by one on purpose, and what other tools get by default belongs to the
 * approvals step; until then a Run mode means what it meant.
 */
function unlisted(
  verdict: PermissionVerdict,
  tool: Pick<ToolDefinition<unknown>, "id" | "risk" | "defaultDecision">,
  policy: ExecutionPolicy,
): PermissionVerdict {
  const configured = tool.defaultDecision;
  const byPreset = verdict.origin === null || verdict.origin.startsWith("preset:");
  if (configured !== undefined && byPreset && !Object.hasOwn(TOOL_PATTERN_KINDS, tool.id)) {
    // Its owner's decision replaces the preset's, but cannot lift a sealed mode's wall.
    const walled = configured === "allow" && permissionRefusal(tool, policy) !== null;
    return { ...verdict, decision: walled ? "deny" : configured };
  }
  if (verdict.origin !== null || Object.hasOwn(TOOL_PATTERN_KINDS, tool.id)) return verdict;
  // `ask` is new: a tool it does not name asks, as its fallback says.
  if (policy === "ask") return verdict;
  return permissionRefusal(tool, policy) === null ? { ...verdict, decision: "allow" } : verdict;
}

/** The real roots of a Run's gate, resolved on its first path call (a Run's roots stay put). */
const gateRoots = new WeakMap<
  RunGate,
  { key: string; roots: { workspace: Promise<string>; artifacts: Promise<string> } }
>();

function realRootsOf(gate: RunGate, workspaceRoot: string, artifactsFolder: string) {
  const key = `${workspaceRoot}\0${artifactsFolder}`;
  const kept = gateRoots.get(gate);
  if (kept?.key === key) return kept.roots;
  const roots = { workspace: realPathOr(workspaceRoot), artifacts: realPathOr(artifactsFolder) };
  gateRoots.set(gate, { key, roots });
  return roots;
}

/**
 * A verdict that asks the user: an approval when the gate can ask (the result says so in
 * `awaitsApproval`, with the refusal the model would read otherwise), else the refusal.
 */
function asking(
  gate: RunGate | undefined,
  tool: Pick<ToolDefinition<unknown>, "id" | "risk" | "mcp">,
  target: CallTarget,
  reasonCode: ApprovalReasonCode,
  refusal: { code: string; content: string },
  ruleToolId: string = tool.id,
): GateRefused {
  const shown = targetText(target);
  if (gate?.askUser === true) {
    const summary = approvalSummary(tool, shown);
    return {
      admitted: false,
      result: {
        isError: true,
        errorCode: refusal.code,
        content: `${refusal.content}; the call waits for the user's answer`,
        awaitsApproval: {
          reasonCode,
          summary,
          target: shown,
          // Only a rule's ask may become a rule: a dangerous command or a loop is judged
          // call by call.
          rule: reasonCode === "permission_ask"
            ? approvalRule(ruleToolId, target, ruleToolId === tool.id ? tool.mcp : undefined)
            : null,
        },
      },
    };
  }
  return failure(
    refusal.code,
    `${refusal.content}, and this Run cannot ask for it; the call was not run. Do not retry ` +
      "it: tell the user what you wanted to do, or do it another way",
  );
}

/** What a call acts on, as the person who answers reads it. */
function targetText(target: CallTarget): string | null {
  if (target.kind === "command") return target.command;
  if (target.kind === "path") {
    return target.workspacePath === "" ? "." : target.workspacePath ?? target.path;
  }
  return null;
}

/** One line for an approval card: what the call would do. */
function approvalSummary(
  tool: Pick<ToolDefinition<unknown>, "id" | "risk">,
  target: string | null,
): string {
  const verb = { process: "Run", write: "Change", read: "Read" }[tool.risk as string];
  const what = target === null || target === ""
    ? `${tool.id}`
    : verb === undefined
    ? `${tool.id} ${target}`
    : `${verb} ${target} (${tool.id})`;
  // One line, bounded: a command may span lines and run long.
  const line = what.replace(/\s+/g, " ").trim();
  return line.length <= APPROVAL_SUMMARY_MAX_CHARS
    ? line
    : `${line.slice(0, APPROVAL_SUMMARY_MAX_CHARS - 1)}…`;
}

function failure(errorCode: string, content: string): GateRefused {
  return { admitted: false, result: { isError: true, errorCode, content } };
}

/** The classifier's verdict; a command it cannot judge is treated as high-risk. */
function highRisk(
  command: string,
  args: unknown,
  workspaceRoot: string,
  homeDir: string,
): { rule: string; reason: string } | null {
  const cwd = (args as { cwd?: unknown }).cwd;
  try {
    const verdict: HighRiskVerdict | null = classifyHighRisk({
      command,
      workspaceRoot,
      homeDir,
      ...(typeof cwd === "string" ? { cwd } : {}),
    });
    return verdict;
  } catch (error) {
    // Fail closed: a command the classifier cannot judge is not let through unjudged.
    const problem = error instanceof Error ? error.message : String(error);
    return { rule: "unclassifiable", reason: `the command cannot be classified: ${problem}` };
  }
}

/**
 * The text of a deny: a config rule is named; a preset's deny keeps the wording the Run
 * modes had before rules (risk class, or a path outside the workspace).
 */
function denial(
  tool: Pick<ToolDefinition<unknown>, "id" | "risk">,
  policy: ExecutionPolicy,
  shown: string,
  verdict: PermissionVerdict,
): string {
  if (verdict.origin !== null && !verdict.origin.startsWith("preset:")) {
    return `permission_denied: ${tool.id} is denied by ${ruleName(verdict)}`;
  }
  const byRisk = permissionRefusal(tool, policy);
  if (byRisk !== null) return byRisk;
  return `permission_denied: ${shown} is outside the workspace, and this run is ${policy}`;
}

/**
 * A call's path as the file tools' access rules name it: as written when it is inside the
 * workspace (a link is named, not its target), else absolute with `..` resolved.
 */
function shownPath(args: unknown, context: Pick<ToolContext, "workspaceRoot">): string {
  const path = (args as { path?: unknown }).path;
  const written = typeof path === "string" && path !== "" ? path : ".";
  const absolute = resolve(context.workspaceRoot, written);
  return isWithin(resolve(context.workspaceRoot), absolute) ? written : absolute;
}

function ruleName(verdict: PermissionVerdict): string {
  if (verdict.origin === null) return "no rule allows it";
  const rule = verdict.rule;
  const shown = rule === null
    ? ""
    : ` {tool: ${rule.tool}${rule.pattern === undefined ? "" : `, pattern: ${rule.pattern}`}, ` +
      `decision: ${rule.decision}}`;
  return `permission rule ${verdict.origin}[${verdict.index}]${shown}`;
}
