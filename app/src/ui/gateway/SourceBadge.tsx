import type { Thread } from "@daedalus/client";
import { t } from "../../i18n/i18n.ts";
import "./gateway.css";

/**
 * Where a thread came from when the owner did not start it: "via <app key>" for a
 * gateway thread (the key's name when the thread was made, kept after a revoke), with the
 * whole sentence as its accessible name. Nothing for the owner's own threads.
 *
 * @param props.thread the thread's summary
 */
export function SourceBadge(props: { thread: Thread | undefined }) {
  const source = props.thread?.source;
  if (!source || source.kind !== "gateway") return null;
  const label = t("gateway.source.gatewayLabel", { name: source.keyName });
  return (
    <span
      class="source-badge"
      data-source={source.kind}
      title={label}
      aria-label={label}
      role="img"
    >
      {t("gateway.source.gateway", { name: source.keyName })}
    </span>
  );
}
