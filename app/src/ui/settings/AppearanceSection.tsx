import { ThemePreview } from "./ThemePreview.tsx";
import { useState } from "preact/hooks";
import { appearance, palette, updateAppearance } from "../../state/appearance.ts";
import {
  CODE_FONTS,
  COLOR_NAMES,
  type ColorName,
  contrastRatio,
  MIN_TEXT_CONTRAST,
  MOTION_MODES,
  PALETTE_COLORS,
  parseFontList,
  THEME_MODES,
  UI_FONTS,
} from "../../state/appearance_prefs.ts";
import { type MessageKey, t } from "../../i18n/i18n.ts";
import "./appearance.css";

/**
 * Theme, colours, fonts and reduced motion, applied at once and remembered. Needs no
 * props and no particular container (the settings dialog, the onboarding, a page).
 */
export function AppearanceSection() {
  const prefs = appearance.value;
  return (
    <section class="appearance-section" aria-labelledby="appearance-title">
      <h2 id="appearance-title">{t("appearance.title")}</h2>
      <ChoiceGroup
        name="theme"
        legend={t("appearance.theme")}
        options={THEME_MODES}
        value={prefs.theme}
        label={(mode) => t(`appearance.theme.${mode}` as MessageKey)}
        onChange={(theme) => updateAppearance({ theme })}
      />
      <ThemePreview />
      <ColorFields />
      <FontField
        id="appearance-ui-font"
        label={t("appearance.uiFont")}
        presets={UI_FONTS}
        value={prefs.uiFont}
        onChange={(uiFont) => updateAppearance({ uiFont })}
      />
      <FontField
        id="appearance-code-font"
        label={t("appearance.codeFont")}
        presets={CODE_FONTS}
        value={prefs.codeFont}
        onChange={(codeFont) => updateAppearance({ codeFont })}
      />
      <ChoiceGroup
        name="motion"
        legend={t("appearance.motion")}
        options={MOTION_MODES}
        value={prefs.reducedMotion}
        label={(mode) => t(`appearance.motion.${mode}` as MessageKey)}
        onChange={(reducedMotion) => updateAppearance({ reducedMotion })}
      />
    </section>
  );
}

/** A radio group: arrow keys move between the options natively. */
function ChoiceGroup<T extends string>(props: {
  name: string;
  legend: string;
  options: readonly T[];
  value: T;
  label: (option: T) => string;
  onChange: (option: T) => void;
}) {
  return (
    <fieldset class="appearance-choice">
      <legend>{props.legend}</legend>
      {props.options.map((option) => (
        <label key={option}>
          <input
            type="radio"
            name={`appearance-${props.name}`}
            value={option}
            checked={props.value === option}
            onChange={() => props.onChange(option)}
          />
          {props.label(option)}
        </label>
      ))}
    </fieldset>
  );
}

/** The shown palette's accent, background and foreground, each with a reset. */
function ColorFields() {
  const shown = palette.value;
  const overrides = appearance.value.colors[shown];
  const effective = (name: ColorName) => overrides[name] ?? PALETTE_COLORS[shown][name];
  const setColor = (name: ColorName, color: string | null) => {
    const next = { ...overrides };
    if (color === null) delete next[name];
    else next[name] = color;
    updateAppearance({ colors: { ...appearance.value.colors, [shown]: next } });
  };
  const ratio = contrastRatio(effective("foreground"), effective("background"));
  return (
    <fieldset class="appearance-colors">
      <legend>{t(`appearance.colors.${shown}` as MessageKey)}</legend>
      {COLOR_NAMES.map((name) => (
        <div class="appearance-color" key={name}>
          <label for={`appearance-color-${name}`}>
            {t(`appearance.color.${name}` as MessageKey)}
          </label>
          <input
            id={`appearance-color-${name}`}
            type="color"
            value={effective(name)}
            onInput={(event) => setColor(name, event.currentTarget.value)}
          />
          <button
            type="button"
            disabled={overrides[name] === undefined}
            aria-label={t("appearance.resetColor", {
              color: t(`appearance.color.${name}` as MessageKey),
            })}
            onClick={() => setColor(name, null)}
          >
            {t("appearance.reset")}
          </button>
        </div>
      ))}
      {ratio < MIN_TEXT_CONTRAST && (
        <p class="appearance-warning" role="status">
          {t("appearance.lowContrast", { ratio: ratio.toFixed(1) })}
        </p>
      )}
    </fieldset>
  );
}

const CUSTOM = "custom";

/** A preset list plus "Custom", whose text is applied only when it is a safe font list. */
function FontField(props: {
  id: string;
  label: string;
  presets: Record<string, string>;
  value: string;
  onChange: (value: string) => void;
}) {
  const isPreset = Object.hasOwn(props.presets, props.value);
  const [custom, setCustom] = useState(isPreset ? "" : props.value);
  const [choosingCustom, setChoosingCustom] = useState(!isPreset);
  const invalid = choosingCustom && custom.trim() !== "" && parseFontList(custom) === null;
  const onSelect = (choice: string) => {
    setChoosingCustom(choice === CUSTOM);
    if (choice !== CUSTOM) props.onChange(choice);
    else if (parseFontList(custom)) props.onChange(parseFontList(custom)!);
  };
  const onType = (text: string) => {
    setCustom(text);
    const list = parseFontList(text);
    if (list) props.onChange(list);
  };
  return (
    <div class="appearance-font">
      <label for={props.id}>{props.label}</label>
      <select
        id={props.id}
        value={choosingCustom ? CUSTOM : props.value}
        onChange={(event) => onSelect(event.currentTarget.value)}
      >
        {Object.keys(props.presets).map((id) => (
          <option key={id} value={id}>{t(`appearance.font.${id}` as MessageKey)}</option>
        ))}
        <option value={CUSTOM}>{t("appearance.font.custom")}</option>
      </select>
      {choosingCustom && (
        <>
          <input
            type="text"
            aria-label={t("appearance.font.customLabel", { field: props.label })}
            aria-invalid={invalid}
            aria-describedby={`${props.id}-hint`}
            value={custom}
            placeholder='"Fira Code", monospace'
            onInput={(event) => onType(event.currentTarget.value)}
          />
          <p id={`${props.id}-hint`} class={invalid ? "appearance-warning" : "muted"}>
            {t(invalid ? "appearance.font.invalid" : "appearance.font.hint")}
          </p>
        </>
      )}
    </div>
  );
}
