import { t } from "../i18n/i18n.ts";
import { withInlineCode } from "./inline_code.tsx";

/** Shown without a session: how to get a login URL (`deno task start`, `deno task login`). */
export function NoSession(props: { rejected: boolean }) {
  return (
    <main class="no-session">
      <img class="app-mark" src="/icon.svg" alt="" width="48" height="48" />
      <h1>{t("session.title")}</h1>
      {props.rejected && <p role="alert">{withInlineCode(t("session.invalid"))}</p>}
      <p>{withInlineCode(t("session.body"))}</p>
      <button type="button" onClick={() => location.reload()}>{t("session.retry")}</button>
    </main>
  );
}
