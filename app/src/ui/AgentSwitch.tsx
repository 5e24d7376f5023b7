import { useEffect } from "preact/hooks";
import { activeRun, report, threads } from "../state/store.ts";
import { agentOfThread, agentsView, loadAgents, setThreadAgent } from "../state/agents.ts";
import { t } from "../i18n/i18n.ts";
import "./agent_switch.css";

/**
 * The thread header's agent switch: the profile the thread runs, and the others to
 * switch to (`thread.set_agent`, for its next run). Disabled while a run is active: a
 * Run keeps the agent it was submitted with, so a switch then would only confuse.
 */
export function AgentSwitch({ threadId }: { threadId: string }) {
  useEffect(() => {
    if (agentsView.value.status === "idle") void loadAgents();
  }, []);
  const view = agentsView.value;
  const thread = threads.value.byId[threadId];
  const current = agentOfThread(view, thread);
  if (current === null) return null;
  const busy = activeRun.value !== null;
  const change = async (agentId: string) => {
    try {
      const updated = await setThreadAgent(threadId, agentId);
      threads.value = {
        ...threads.value,
        byId: { ...threads.value.byId, [updated.id]: updated },
      };
    } catch (error) {
      report(error);
    }
  };
  return (
    <select
      class="agent-switch"
      aria-label={t("agents.headerLabel")}
      title={busy ? t("agents.headerBusy") : t("agents.headerLabel")}
      value={current.profile.id}
      disabled={busy}
      onChange={(event) => void change(event.currentTarget.value)}
    >
      {view.agents.map((info) => (
        <option key={info.profile.id} value={info.profile.id}>{info.profile.name}</option>
      ))}
    </select>
  );
}
