import { useEffect, useState } from "preact/hooks";
import { t } from "../i18n/i18n.ts";

/** How long "Copied" shows before the button reads "Copy" again. */
const COPIED_MS = 2000;

/**
 * A button that puts `text` on the clipboard (Clipboard API; loopback pages are a
 * secure context) and says "Copied" for a moment.
 *
 * @param props.text what to copy
 * @param props.label the accessible name before copying (e.g. "Copy code")
 * @param props.class the button's class
 */
export function CopyButton(props: { text: string; label: string; class: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <button
      type="button"
      class={props.class}
      aria-label={copied ? t("markdown.copied") : props.label}
      onClick={() =>
        void navigator.clipboard?.writeText(props.text).then(() => setCopied(true), () => {})}
    >
      {copied ? t("markdown.copied") : t("markdown.copy")}
    </button>
  );
}
