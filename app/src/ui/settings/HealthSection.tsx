import { useEffect } from "preact/hooks";
import { breakerHealth, loadBreakers } from "../../state/breaker_health.ts";
import { movesBreakers } from "../../state/breaker_rows.ts";
import { onJournalEvent } from "../../state/store.ts";
import { useNow } from "../use_now.ts";
import { HealthPanel } from "./HealthPanel.tsx";
import "./health.css";

/**
 * Settings › Health: the runtime's circuit breakers of tools and providers. Lists them
 * when mounted and again whenever a Run settles while it is open (a Run's calls are what
 * moves a breaker); Refresh lists them on demand.
 */
export function HealthSection() {
  useEffect(() => {
    void loadBreakers();
    return onJournalEvent((event) => {
      if (movesBreakers(event)) void loadBreakers();
    });
  }, []);
  // The tick only re-renders the countdowns; the time is read now, since a list that
  // arrived between two ticks must count from the moment it is shown.
  useNow();
  return <HealthPanel view={breakerHealth.value} nowMs={Date.now()} />;
}
