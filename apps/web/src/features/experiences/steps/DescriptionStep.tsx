import { Textarea } from '@mantine/core';
import { ZExperienceFields, type TExperience } from '@tourdesk/contracts';
import { Controller } from 'react-hook-form';
import { RichTextInput } from '../../../shared/components/RichTextInput';
import { LinesInput } from './LinesInput';
import { StepForm } from './StepForm';
import { useStepForm } from './use-step-form';

const schema = ZExperienceFields.pick({
  long_description: true,
  highlights: true,
  inclusions: true,
  exclusions: true,
  what_to_bring: true,
  important_information: true,
});

export function DescriptionStep({ experience }: { experience: TExperience }) {
  const { form, save, saving, hasNext } = useStepForm(experience, 'description', schema, {
    long_description: experience.long_description,
    highlights: experience.highlights,
    inclusions: experience.inclusions,
    exclusions: experience.exclusions,
    what_to_bring: experience.what_to_bring,
    important_information: experience.important_information,
  });
  const lists = [
    ['highlights', 'Highlights'],
    ['inclusions', 'Included'],
    ['exclusions', 'Not included'],
    ['what_to_bring', 'What to bring'],
  ] as const;
  return (
    <StepForm dirty={form.formState.isDirty} saving={saving} onSave={save} hasNext={hasNext}>
      <Controller
        control={form.control}
        name="long_description"
        render={({ field, fieldState }) => (
          <RichTextInput
            label="Long description"
            description="What the guest will experience: headings, lists, emphasis and links are kept."
            value={field.value ?? ''}
            onChange={field.onChange}
            onBlur={field.onBlur}
            inputRef={field.ref}
            error={fieldState.error?.message}
          />
        )}
      />
      {lists.map(([name, label]) => (
        <Controller
          key={name}
          control={form.control}
          name={name}
          render={({ field, fieldState }) => <LinesInput label={label} value={field.value ?? []} onChange={field.onChange} error={fieldState.error?.message} />}
        />
      ))}
      <Textarea label="Important information" autosize minRows={3} {...form.register('important_information')} />
    </StepForm>
  );
}
