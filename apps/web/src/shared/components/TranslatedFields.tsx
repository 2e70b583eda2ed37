import { Stack, Textarea, TextInput } from '@mantine/core';
import { missingTranslations, type Language } from '@tourdesk/contracts/i18n';
import { useState, type ReactNode } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { LanguageSwitch, useSellingLanguages } from './LanguageSwitch';

export interface TranslatedField {
  name: string;
  label: string;
  multiline?: boolean;
}

/**
 * A form's texts per language (issue 30) where a record's short texts are edited (a pricing
 * category's label, an extra's name and description, a question, a cancellation policy): the main
 * language shows the form itself (`children`), another language that record's texts in it, bound
 * to `translations.<language>.<field>` of the same form (one Save), the main text as placeholder.
 */
export function TranslatedFields<V extends FieldValues>({ form, fields, children }: { form: UseFormReturn<V, unknown, unknown>; fields: TranslatedField[]; children: ReactNode }) {
  const languages = useSellingLanguages();
  const main = languages[0]!;
  const [chosen, setLanguage] = useState<Language>(main);
  const language = languages.includes(chosen) ? chosen : main;
  const live = form.watch() as Record<string, unknown> & { translations?: Partial<Record<Language, Record<string, unknown>>> };
  const names = fields.map((f) => f.name);
  const missing = Object.fromEntries(languages.slice(1).map((l) => [l, missingTranslations(live, live.translations, l, names)]));
  const labels = Object.fromEntries(fields.map((f) => [f.name, f.label]));
  return (
    <Stack gap="sm">
      <LanguageSwitch languages={languages} value={language} onChange={setLanguage} missing={missing} labels={labels} />
      {language === main
        ? children
        : fields.map((f) => {
            const props = {
              label: f.label,
              placeholder: String(live[f.name] ?? ''),
              ...form.register(`translations.${language}.${f.name}` as Path<V>),
            };
            return f.multiline ? <Textarea key={`${language}-${f.name}`} autosize minRows={2} {...props} /> : <TextInput key={`${language}-${f.name}`} {...props} />;
          })}
    </Stack>
  );
}
