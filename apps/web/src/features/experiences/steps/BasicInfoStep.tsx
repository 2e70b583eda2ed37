import { Group, MultiSelect, NumberInput, Select, Stack, TagsInput, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { EXPERIENCE_TYPES, ZExperienceFields, type TExperience } from '@tourdesk/contracts';
import { Controller } from 'react-hook-form';
import { useMeetingPointsQuery } from '../api';
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

const LANGUAGES = [
  ['en', 'English'], ['de', 'German'], ['fr', 'French'], ['it', 'Italian'], ['es', 'Spanish'], ['pt', 'Portuguese'],
  ['nl', 'Dutch'], ['zh', 'Chinese'], ['ja', 'Japanese'], ['ko', 'Korean'], ['ru', 'Russian'], ['ar', 'Arabic'],
].map(([value, label]) => ({ value: value!, label: label! }));

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
  const t = useStepLanguage(experience, form, ['title', 'short_description']);
  return (
    <StepForm dirty={form.formState.isDirty} saving={saving} onSave={save} hasNext={hasNext}>
      {t.switcher}
      <TextInput key={`title-${t.language}`} label="Title" placeholder={t.placeholder('title')} {...form.register(t.name('title'))} error={t.isMain ? errors.title?.message : errors.translations?.[t.language]?.title?.message} />
      <Controller
        control={form.control}
        name="type"
        render={({ field }) => <Select label="Type" data={[...EXPERIENCE_TYPES]} value={field.value} onChange={(v) => v && field.onChange(v)} allowDeselect={false} />}
      />
      <Textarea
        key={`short-${t.language}`}
        label="Short description"
        description="One or two sentences shown in lists and search results."
        placeholder={t.placeholder('short_description')}
        autosize
        minRows={2}
        {...form.register(t.name('short_description'))}
        error={t.isMain ? errors.short_description?.message : errors.translations?.[t.language]?.short_description?.message}
      />
      <Controller
        control={form.control}
        name="categories"
        render={({ field }) => <TagsInput label="Categories" placeholder="Type and press Enter" value={field.value ?? []} onChange={field.onChange} />}
      />
      <Controller
        control={form.control}
        name="tags"
        render={({ field }) => <TagsInput label="Tags" placeholder="Type and press Enter" value={field.value ?? []} onChange={field.onChange} />}
      />
      <Controller
        control={form.control}
        name="languages"
        render={({ field }) => <MultiSelect label="Languages" data={LANGUAGES} value={field.value ?? []} onChange={field.onChange} searchable />}
      />
      <Controller
        control={form.control}
        name="duration_minutes"
        render={({ field, fieldState }) => (
          <NumberInput label="Duration (minutes)" min={5} step={15} value={field.value ?? ''} onChange={(v) => field.onChange(v === '' ? null : Number(v))} error={fieldState.error?.message} />
        )}
      />
      <Controller
        control={form.control}
        name="meeting_points"
        render={({ field, fieldState }) => (
          <Stack gap={4}>
            <MultiSelect
              label="Meeting points"
              placeholder={points?.results.length === 0 ? 'None yet: create one' : undefined}
              data={(points?.results ?? []).map((p) => ({ value: p.id, label: p.name }))}
              value={field.value ?? []}
              onChange={field.onChange}
              error={fieldState.error?.message}
              nothingFoundMessage="No meeting point yet"
            />
            <Group>
              <NewButton label="New meeting point" onClick={() => setCreatingPoint(true)} />
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
