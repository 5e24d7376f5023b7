import type { CreatedKey } from "../../state/gateway_keys.ts";
import { dismissCreatedKey } from "../../state/gateway_keys.ts";
import { t } from "../../i18n/i18n.ts";
import { CopyButton } from "../CopyButton.tsx";
import { GatewaySnippets } from "./GatewaySnippets.tsx";

/**
 * The key just made, shown this once: the key with a copy button, the warning that it
 * will not be shown again, and the examples with the key filled in.
 */
export function CreatedKeyPanel(props: { created: CreatedKey }) {
  const { created } = props;
  return (
    <section class="gateway-created" role="status" aria-labelledby="gateway-created-title">
      <h4 id="gateway-created-title">{t("gateway.createdKey.title", { name: created.name })}</h4>
      <p class="gateway-once">{t("gateway.createdKey.once")}</p>
      <div class="gateway-secret">
        <input
          readOnly
          value={created.key}
          aria-label={t("gateway.createdKey.label")}
          spellcheck={false}
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton
          text={created.key}
          label={t("gateway.createdKey.copy")}
          class="gateway-copy primary"
        />
      </div>
      <GatewaySnippets keyText={created.key} />
      <div>
        <button type="button" onClick={dismissCreatedKey}>{t("gateway.createdKey.done")}</button>
      </div>
    </section>
  );
}
