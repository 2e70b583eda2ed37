import { Stack, Text, Textarea, TextInput } from '@mantine/core';
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

export type TranslationsValue = Partial<Record<Language, Record<string, string | string[]>>>;

/**
 * The same switch for a form kept in component state (the inline "new question" and "new policy"
 * dialogs): `base` is the record as typed in the main language, `value` its translations.
 * A list field (a question's options) takes one entry per option of the main language, in order.
 */
export function TranslationsEditor({
  base,
  value,
  onChange,
  fields,
  error,
  children,
}: {
  base: Record<string, string | string[]>;
  value: TranslationsValue;
  onChange: (value: TranslationsValue) => void;
  fields: (TranslatedField & { list?: boolean })[];
  /** The server's refusal of a translation (e.g. options not as many as the question's). */
  error?: string;
  children: ReactNode;
}) {
  const languages = useSellingLanguages();
  const main = languages[0]!;
  const [chosen, setLanguage] = useState<Language>(main);
  const language = languages.includes(chosen) ? chosen : main;
  const names = fields.map((f) => f.name);
  const missing = Object.fromEntries(languages.slice(1).map((l) => [l, missingTranslations(base, value, l, names)]));
  const labels = Object.fromEntries(fields.map((f) => [f.name, f.label]));
  const set = (field: string, text: string | string[]) => onChange({ ...value, [language]: { ...(value[language] ?? {}), [field]: text } });
  return (
    <Stack gap="sm">
      <LanguageSwitch languages={languages} value={language} onChange={setLanguage} missing={missing} labels={labels} />
      {language === main
        ? children
        : fields.map((f) => {
            const current = value[language]?.[f.name];
            if (f.list) {
              const options = (base[f.name] as string[] | undefined) ?? [];
              const texts = Array.isArray(current) ? current : [];
              return (
                <Stack key={`${language}-${f.name}`} gap={4}>
                  {options.map((o, i) => (
                    <TextInput
                      key={o}
                      label={i === 0 ? f.label : undefined}
                      aria-label={`${f.label}: ${o}`}
                      placeholder={o}
                      value={texts[i] ?? ''}
                      onChange={(e) => set(f.name, options.map((_, j) => (j === i ? e.currentTarget.value : texts[j] ?? '')))}
                    />
                  ))}
                </Stack>
              );
            }
            const props = { label: f.label, placeholder: String(base[f.name] ?? ''), value: typeof current === 'string' ? current : '', onChange: (e: { currentTarget: { value: string } }) => set(f.name, e.currentTarget.value) };
            return f.multiline ? <Textarea key={`${language}-${f.name}`} autosize minRows={2} {...props} /> : <TextInput key={`${language}-${f.name}`} {...props} />;
          })}
      {error && (
        <Text size="xs" c="red">
          {error}
        </Text>
      )}
    </Stack>
  );
}
