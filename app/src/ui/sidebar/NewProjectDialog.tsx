import { signal } from "@preact/signals";
import { useState } from "preact/hooks";
import { createThread } from "../../state/store.ts";
import { t } from "../../i18n/i18n.ts";
import { useModalDialog } from "../modal_dialog.ts";

/** Whether the "new project thread" dialog is open. */
export const newProjectOpen = signal(false);

/**
 * Asks for a project folder (an absolute path on the runtime's machine, which the
 * runtime validates) and an optional name, then creates a thread working in it.
 */
export function NewProjectDialog() {
  const open = newProjectOpen.value;
  const [path, setPath] = useState("");
  const [name, setName] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const modal = useModalDialog(open, () => (newProjectOpen.value = false), () => {
    setPath("");
    setName("");
    setProblem(null);
  });
  if (!open) return null;
  const submit = async (event: Event) => {
    event.preventDefault();
    const folder = path.trim();
    if (folder === "") {
      setProblem(t("projects.pathRequired"));
      return;
    }
    const refused = await createThread({
      rootUri: folder,
      // Without a name the runtime names the project after the folder.
      name: name.trim() === "" ? undefined : name.trim(),
    });
    // A refusal is shown beside the folder, in the dialog (not behind its backdrop), and
    // the input stays for the user to correct.
    if (refused === null) modal.close();
    else setProblem(refused.message);
  };
  return (
    <dialog
      ref={modal.ref}
      class="modal new-project"
      aria-labelledby="new-project-title"
      onClose={modal.onClose}
    >
      <form onSubmit={submit}>
        <h2 id="new-project-title">{t("projects.dialogTitle")}</h2>
        <label>
          {t("projects.path")}
          <input
            type="text"
            value={path}
            autofocus
            spellcheck={false}
            aria-describedby="new-project-hint"
            aria-invalid={problem !== null}
            onInput={(event) => setPath(event.currentTarget.value)}
          />
        </label>
        <p
          id="new-project-hint"
          class={problem === null ? "muted" : "field-problem"}
          role={problem === null ? undefined : "alert"}
        >
          {problem ?? t("projects.pathHint")}
        </p>
        <label>
          {t("projects.name")}
          <input
            type="text"
            value={name}
            onInput={(event) => setName(event.currentTarget.value)}
          />
        </label>
        <div class="actions">
          <button type="button" onClick={modal.close}>
            {t("projects.cancel")}
          </button>
          <button type="submit">{t("projects.create")}</button>
        </div>
      </form>
    </dialog>
  );
}
