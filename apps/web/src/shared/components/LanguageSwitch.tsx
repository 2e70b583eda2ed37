import { Badge, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { isLanguage, LANGUAGE_NAMES, type Language } from '@tourdesk/contracts/i18n';
import { useAppSelector } from '../hooks/store';
import { useCommonT } from '../i18n/common';

/** The languages the organisation sells in, its first the main one (the session's, Settings → Product configuration). */
export function useSellingLanguages(): Language[] {
  const languages = useAppSelector((s) => s.auth.user?.base_account?.languages);
  const known = (languages ?? []).filter(isLanguage);
  return known.length ? known : ['en'];
}

/**
 * The language switch of translatable fields (issue 30): one button per language the organisation
 * sells in; the main language edits the record's own fields, another its translation. Each other
 * language shows how many of the texts it still misses ("2 missing", the fields in its tooltip).
 * Hidden while the organisation sells in one language only.
 */
export function LanguageSwitch({
  languages,
  value,
  onChange,
  missing,
  labels,
}: {
  languages: Language[];
  value: Language;
  onChange: (language: Language) => void;
  /** Per language, the fields not translated yet. */
  missing: Partial<Record<Language, string[]>>;
  /** A field's name as the form calls it (for the tooltip). */
  labels?: Record<string, string>;
}) {
  const t = useCommonT();
  if (languages.length < 2) return null;
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id="language-switch">
        {t('languages.label')}
      </Text>
      {/* Buttons rather than a SegmentedControl: the editor's steps stay within their size budget (docs/decisions/0004). */}
      <Group gap={6} role="group" aria-labelledby="language-switch">
        {languages.map((l, i) => {
          const gaps = missing[l] ?? [];
          return (
            <Button
              key={l}
              size="xs"
              variant={l === value ? 'filled' : 'default'}
              aria-pressed={l === value}
              onClick={() => onChange(l)}
              rightSection={
                i === 0 ? (
                  <Badge size="xs" variant="light" color="gray">
                    {t('languages.main')}
                  </Badge>
                ) : gaps.length > 0 ? (
                  <Tooltip label={t('languages.notTranslated', { fields: gaps.map((f) => labels?.[f] ?? f.replaceAll('_', ' ')).join(', ') })} withinPortal>
                    <Badge size="xs" variant="light" color="orange" data-testid={`missing-${l}`}>
                      {t('languages.missing', { count: gaps.length })}
                    </Badge>
                  </Tooltip>
                ) : (
                  <Badge size="xs" variant="light" color="teal" data-testid={`missing-${l}`}>
                    {t('languages.complete')}
                  </Badge>
                )
              }
            >
              {LANGUAGE_NAMES[l]}
            </Button>
          );
        })}
      </Group>
      {value !== languages[0] && (
        <Text size="xs" c="dimmed">
          {t('languages.fallbackHint', { language: LANGUAGE_NAMES[value], main: LANGUAGE_NAMES[languages[0]!] })}
        </Text>
      )}
    </Stack>
  );
}
