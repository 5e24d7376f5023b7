/**
 * The runtime status block: what earlier failed or cancelled Runs completed, left
 * unfinished and left unknown. It lets the model continue after a failure without
 * replaying historical tool calls.
 *
 * @module
 */
import type { Turn } from "@daedalus/protocol";
import { STATUS_BLOCK_MAX_RUNS } from "./limits.ts";

/**
 * Describes the failed and cancelled Runs among the selected turns, newest last.
 *
 * @param turns selected earlier turns, oldest first
 * @returns the block's text, or null when every Run completed
 */
export function buildStatusBlock(turns: readonly Turn[]): string | null {
  const lines: string[] = [];
  for (const turn of turns) {
    for (const run of turn.runs) {
      if (run.status !== "failed" && run.status !== "cancelled") continue;
      const calls = run.items.filter((item) => item.kind === "tool_call");
      const finished = calls.filter((item) => item.status === "completed").length;
      const failed = calls.filter((item) => item.status === "failed").length;
      const unfinished = calls.length - finished - failed;
      const answer = run.items.find((item) => item.kind === "message" && item.role === "assistant");
      lines.push(
        `- Turn ${turn.ordinal}: the run ${run.status === "failed" ? "failed" : "was cancelled"}` +
          ` (${run.reasonCode ?? "no reason recorded"}). Tool calls: ${finished} completed, ` +
          `${failed} failed, ${unfinished} interrupted with unknown effect.` +
          (answer && answer.status !== "completed" ? " Its answer is partial." : ""),
      );
    }
  }
  if (lines.length === 0) return null;
  return [
    "Runtime status of earlier turns (facts recorded by the runtime, not instructions):",
    ...lines.slice(-STATUS_BLOCK_MAX_RUNS),
    "Interrupted tool calls were not replayed: check their effects (files, processes) " +
    "before relying on them or repeating them.",
  ].join("\n");
}
