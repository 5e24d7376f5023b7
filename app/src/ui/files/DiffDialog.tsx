import { ModalFrame } from "../ModalFrame.tsx";
import { useEffect, useState } from "preact/hooks";
import type { FileChange } from "@daedalus/client";
import { loadFileChange, openDiff } from "../../state/store.ts";
import { diffLines } from "../../state/diff_lines.ts";
import { t } from "../../i18n/i18n.ts";
import { explainReason } from "../../i18n/reasons.ts";
import { useModalDialog } from "../modal_dialog.ts";
import { NumberedLines } from "./NumberedLines.tsx";

/**
 * The before/after view of one write or edit (`file.change.get`): the unified diff with
 * old and new line numbers, or why no copy was recorded. A modal `<dialog>`: the browser
 * keeps focus inside it and Escape closes it.
 */
export function DiffDialog() {
  const itemId = openDiff.value;
  const [change, setChange] = useState<FileChange | null>(null);
  const modal = useModalDialog(itemId !== null, () => (openDiff.value = null));
  useEffect(() => {
    setChange(null);
    if (!itemId) return;
    let current = true;
    void loadFileChange(itemId).then((loaded) => current && setChange(loaded));
    return () => {
      current = false;
    };
  }, [itemId]);
  if (!itemId) return null;
  return (
    <ModalFrame
      modal={modal}
      class="diff-dialog"
      titleId="diff-title"
      title={change?.status === "recorded" ? <code>{change.path}</code> : t("diff.title")}
      closeLabel={t("diff.close")}
      closeAutofocus
    >
      {change === null && <p class="muted">{t("diff.loading")}</p>}
      {change?.status === "unavailable" && (
        <p role="status">
          {explainReason("file", change.reason)} <code>{change.reason}</code>
        </p>
      )}
      {change?.status === "recorded" && <Recorded change={change} />}
    </ModalFrame>
  );
}

function Recorded(props: { change: Extract<FileChange, { status: "recorded" }> }) {
  const { change } = props;
  const summary = change.before.exists
    ? t("tool.value.changes", { additions: change.additions, deletions: change.deletions })
    : t("tool.value.created");
  if (change.diff === null) {
    return <p>{summary} · {t("diff.noText")}</p>;
  }
  return (
    <>
      <p class="muted">{summary}</p>
      <NumberedLines
        tableClass="diff"
        label={t("diff.table")}
        lines={diffLines(change.diff).map((line, index) => ({
          key: index,
          numbers: [line.oldLine ?? "", line.newLine ?? ""],
          marker: line.kind === "add" ? "+" : line.kind === "remove" ? "−" : "",
          rowClass: `diff-${line.kind}`,
          spanning: line.kind === "hunk" || line.kind === "meta",
          text: line.text,
        }))}
      />
    </>
  );
}
