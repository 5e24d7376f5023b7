import { useEffect } from "preact/hooks";
import type { Skill, SkillDiagnostic } from "@daedalus/client";
import {
  loadSkills,
  setSkillEnabled,
  skillsFolderOf,
  skillsView,
  TOO_MANY_DIAGNOSTICS,
} from "../../state/skills.ts";
import { t } from "../../i18n/i18n.ts";
import { en, type MessageKey } from "../../i18n/en.ts";
import { FailureLine } from "./FailureLine.tsx";
import { moveFocusInList } from "../list_keys.ts";
import "./data_sections.css";
import "./skills.css";

/**
 * Settings → Skills: the skills found in the skills folder with a switch each
 * (`skill.set_enabled`, for new runs), and the entries that could not be loaded with
 * the problem and its code. Loads when mounted; Refresh re-reads the folder.
 */
export function SkillsSection() {
  useEffect(() => {
    void loadSkills();
  }, []);
  const view = skillsView.value;
  const folder = skillsFolderOf(view.skills);
  const loading = view.status === "loading";
  const firstLoad = (view.status === "idle" || loading) && view.skills.length === 0 &&
    view.diagnostics.length === 0;
  return (
    <div class="data-section skills-section" aria-busy={loading}>
      <header class="section-header">
        <h3>{t("skills.title")}</h3>
        <button type="button" aria-disabled={loading} onClick={() => loading || void loadSkills()}>
          {loading ? t("skills.refreshing") : t("skills.refresh")}
        </button>
      </header>
      <p class="muted">{t("skills.intro")}</p>
      {view.error && <FailureLine failure={view.error} />}
      {firstLoad && <p class="muted">{t("skills.loading")}</p>}
      {view.status === "ready" && view.skills.length === 0 && (
        <p class="muted">{t("skills.none")}</p>
      )}
      {view.skills.length > 0 && (
        <ul
          class="skill-list"
          aria-label={t("skills.listLabel")}
          onKeyDown={moveFocusInList("[role=switch]")}
        >
          {view.skills.map((skill) => (
            <SkillRow key={skill.name} skill={skill} pending={view.pending.has(skill.name)} />
          ))}
        </ul>
      )}
      {view.diagnostics.length > 0 && (
        <>
          <h4 id="skills-problems">{t("skills.problemsTitle")}</h4>
          <ul class="skill-diagnostics" aria-labelledby="skills-problems">
            {view.diagnostics.map((diagnostic, index) => (
              <DiagnosticRow
                key={`${diagnostic.entry}-${index}`}
                diagnostic={diagnostic}
                folder={folder}
              />
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function SkillRow({ skill, pending }: { skill: Skill; pending: boolean }) {
  const descriptionId = `skill-description-${skill.name}`;
  return (
    <li class="skill-row">
      <div class="skill-text">
        <span class="skill-name">{skill.name}</span>
        <p class="skill-description" id={descriptionId}>{skill.description}</p>
        <code class="skill-location">{skill.location}</code>
      </div>
      <button
        type="button"
        role="switch"
        class="switch"
        aria-checked={skill.enabled}
        aria-label={t("skills.toggle", { name: skill.name })}
        aria-describedby={descriptionId}
        aria-disabled={pending}
        onClick={() => pending || void setSkillEnabled(skill.name, !skill.enabled)}
      >
        <span class="switch-track" aria-hidden="true">
          <span class="switch-thumb" />
        </span>
        <span class="switch-text">{skill.enabled ? t("skills.on") : t("skills.off")}</span>
      </button>
    </li>
  );
}

function DiagnosticRow(
  { diagnostic, folder }: { diagnostic: SkillDiagnostic; folder: string | null },
) {
  if (diagnostic.code === TOO_MANY_DIAGNOSTICS) {
    return <li class="skill-diagnostic overflow">{diagnostic.message}</li>;
  }
  const key = `skills.problem.${diagnostic.code}`;
  const explained = Object.hasOwn(en, key) ? t(key as MessageKey) : null;
  return (
    <li class="skill-diagnostic">
      <code class="diagnostic-entry">
        {diagnostic.entry ? `${folder ?? ""}${diagnostic.entry}` : t("skills.entryUnnamed")}
      </code>
      {explained && <p class="diagnostic-problem">{explained}</p>}
      <p class="diagnostic-message">{diagnostic.message}</p>
      <p class="diagnostic-code">
        {t("skills.code")} <code>{diagnostic.code}</code>
      </p>
    </li>
  );
}
