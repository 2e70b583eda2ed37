import { EXPERIENCE_TEXT_FIELDS, type ExperienceTextField, type TExperience } from '@tourdesk/contracts';
import { missingTranslations, type Language } from '@tourdesk/contracts/i18n';
import { useMemo, useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { LanguageSwitch, useSellingLanguages } from '../../../shared/components/LanguageSwitch';
import { useOfferEditorT } from '../editor-texts';

/**
 * A step's language (issue 30): its translatable fields edit the offer's own texts in the
 * organisation's main language, or `translations.<language>.<field>` in another; the form holds
 * both, so one Save keeps the step's draft and unsaved-changes behaviour. `missing` counts, per
 * language, the offer's texts not translated yet (this step's as typed, the others as saved).
 */
export function useStepLanguage<V extends FieldValues>(experience: TExperience, form: UseFormReturn<V, unknown, unknown>, fields: readonly ExperienceTextField[]) {
  const languages = useSellingLanguages();
  const t = useOfferEditorT();
  // The fields' names, for the switch's "Not translated: …".
  const labels = useMemo(() => Object.fromEntries(EXPERIENCE_TEXT_FIELDS.map((f) => [f, t(`field.${f}`)])) as Record<ExperienceTextField, string>, [t]);
  const main = languages[0]!;
  const [chosen, setLanguage] = useState<Language>(main);
  const language = languages.includes(chosen) ? chosen : main;
  const isMain = language === main;
  const live = form.watch() as Partial<TExperience>;
  const base = { ...experience, ...Object.fromEntries(fields.map((f) => [f, live[f] ?? experience[f]])) } as TExperience;
  const translations = live.translations ?? experience.translations;
  const missing = Object.fromEntries(languages.slice(1).map((l) => [l, missingTranslations(base, translations, l, EXPERIENCE_TEXT_FIELDS)]));
  /** The form's name of a field in the chosen language. */
  const name = (field: ExperienceTextField) => (isMain ? field : `translations.${language}.${field}`) as never;
  /** What customers read when the field is left empty: the main language's text. */
  const placeholder = (field: ExperienceTextField) => {
    if (isMain) return undefined;
    const value = base[field];
    return Array.isArray(value) ? value.join('\n') : value || undefined;
  };
  const switcher = <LanguageSwitch languages={languages} value={language} onChange={setLanguage} missing={missing} labels={labels} />;
  return { language, isMain, name, placeholder, switcher };
}
