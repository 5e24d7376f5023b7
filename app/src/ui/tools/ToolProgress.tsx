import { t } from "../../i18n/i18n.ts";
import { toolProgress } from "../../state/tool_progress.ts";

/**
 * How far a running call got, as its tool last reported (an MCP tool's progress
 * notifications): a bar when the total is known, and the tool's message.
 */
export function ToolProgress({ itemId }: { itemId: string }) {
  const report = toolProgress.value.get(itemId);
  if (report === undefined) return null;
  const done = report.total === null
    ? t("tool.progressOpen", { done: report.progress })
    : t("tool.progress", { done: report.progress, total: report.total });
  return (
    <p class="tool-progress" role="status">
      {report.total !== null && report.total > 0 && (
        <progress max={report.total} value={Math.min(report.progress, report.total)} />
      )}
      <span>{report.message ? `${done} · ${report.message}` : done}</span>
    </p>
  );
}
