import { Group, MultiSelect, NumberInput, Select, Stack, TagsInput, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { EXPERIENCE_TYPES, ZExperienceFields, type TExperience } from '@tourdesk/contracts';
import { Controller } from 'react-hook-form';
import { useMeetingPointsQuery } from '../api';
import { useOfferEditorT } from '../editor-texts';
import { NewButton, NewMeetingPointDialog } from './InlineCreate';
import { StepForm } from './StepForm';
import { useStepForm } from './use-step-form';
import { useStepLanguage } from './use-step-language';

const schema = ZExperienceFields.pick({
  title: true,
  type: true,
  short_description: true,
  categories: true,
  tags: true,
  languages: true,
  duration_minutes: true,
  meeting_points: true,
  translations: true,
});

/** The languages an offer can be guided in (their names in the catalog, `language.<code>`). */
const LANGUAGES = ['en', 'de', 'fr', 'it', 'es', 'pt', 'nl', 'zh', 'ja', 'ko', 'ru', 'ar'] as const;

export function BasicInfoStep({ experience }: { experience: TExperience }) {
  const { data: points, refetch: refetchPoints } = useMeetingPointsQuery();
  const [creatingPoint, setCreatingPoint] = useState(false);
  const { form, save, saving, hasNext } = useStepForm(experience, 'basic-info', schema, {
    title: experience.title,
    type: experience.type,
    short_description: experience.short_description,
    categories: experience.categories,
    tags: experience.tags,
    languages: experience.languages,
    duration_minutes: experience.duration_minutes,
    meeting_points: experience.meeting_points,
    translations: experience.translations,
  });
  const errors = form.formState.errors;
  const tx = useOfferEditorT();
  const t = useStepLanguage(experience, form, ['title', 'short_description']);
  return (
    <StepForm dirty={form.formState.isDirty} saving={saving} onSave={save} hasNext={hasNext}>
      {t.switcher}
      <TextInput key={`title-${t.language}`} label={tx('field.title')} placeholder={t.placeholder('title')} {...form.register(t.name('title'))} error={t.isMain ? errors.title?.message : errors.translations?.[t.language]?.title?.message} />
      <Controller
        control={form.control}
        name="type"
        render={({ field }) => <Select label={tx('basic.type')} data={EXPERIENCE_TYPES.map((value) => ({ value, label: tx(`type.${value}`) }))} value={field.value} onChange={(v) => v && field.onChange(v)} allowDeselect={false} />}
      />
      <Textarea
        key={`short-${t.language}`}
        label={tx('field.short_description')}
        description={tx('basic.shortHint')}
        placeholder={t.placeholder('short_description')}
        autosize
        minRows={2}
        {...form.register(t.name('short_description'))}
        error={t.isMain ? errors.short_description?.message : errors.translations?.[t.language]?.short_description?.message}
      />
      <Controller
        control={form.control}
        name="categories"
        render={({ field }) => <TagsInput label={tx('basic.categories')} placeholder={tx('basic.typeAndEnter')} value={field.value ?? []} onChange={field.onChange} />}
      />
      <Controller
        control={form.control}
        name="tags"
        render={({ field }) => <TagsInput label={tx('basic.tags')} placeholder={tx('basic.typeAndEnter')} value={field.value ?? []} onChange={field.onChange} />}
      />
      <Controller
        control={form.control}
        name="languages"
        render={({ field }) => <MultiSelect label={tx('basic.languages')} data={LANGUAGES.map((value) => ({ value, label: tx(`language.${value}`) }))} value={field.value ?? []} onChange={field.onChange} searchable />}
      />
      <Controller
        control={form.control}
        name="duration_minutes"
        render={({ field, fieldState }) => (
          <NumberInput label={tx('basic.duration')} min={5} step={15} value={field.value ?? ''} onChange={(v) => field.onChange(v === '' ? null : Number(v))} error={fieldState.error?.message} />
        )}
      />
      <Controller
        control={form.control}
        name="meeting_points"
        render={({ field, fieldState }) => (
          <Stack gap={4}>
            <MultiSelect
              label={tx('basic.meetingPoints')}
              placeholder={points?.results.length === 0 ? tx('basic.noPointYet') : undefined}
              data={(points?.results ?? []).map((p) => ({ value: p.id, label: p.name }))}
              value={field.value ?? []}
              onChange={field.onChange}
              error={fieldState.error?.message}
              nothingFoundMessage={tx('basic.nothingFound')}
            />
            <Group>
              <NewButton label={tx('basic.newPoint')} onClick={() => setCreatingPoint(true)} />
            </Group>
            <NewMeetingPointDialog
              opened={creatingPoint}
              onClose={() => setCreatingPoint(false)}
              onCreated={async (m) => {
                await refetchPoints();
                field.onChange([...(field.value ?? []), m.id]);
                setCreatingPoint(false);
              }}
            />
          </Stack>
        )}
      />
    </StepForm>
  );
}
