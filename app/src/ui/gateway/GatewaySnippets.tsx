import { gatewaySnippets } from "../../state/gateway_snippets.ts";
import { t } from "../../i18n/i18n.ts";
import { CopyButton } from "../CopyButton.tsx";

/**
 * The four example calls for one key (curl for Dify and AG-UI, dify-client, HttpAgent),
 * each a code block with its own copy button.
 *
 * @param props.keyText the key itself right after it was made; null: read from the
 *   environment (the runtime keeps only the key's hash)
 */
export function GatewaySnippets(props: { keyText: string | null }) {
  return (
    <div class="gateway-snippets">
      {gatewaySnippets(location.origin, props.keyText).map((snippet) => {
        const name = t(snippet.labelKey);
        return (
          <figure key={snippet.id} class="gateway-snippet" data-snippet={snippet.id}>
            <figcaption>
              <span>{name}</span>
              <CopyButton
                text={snippet.text}
                label={t("gateway.copySnippet", { name })}
                class="gateway-copy"
              />
            </figcaption>
            <pre><code>{snippet.text}</code></pre>
          </figure>
        );
      })}
    </div>
  );
}
