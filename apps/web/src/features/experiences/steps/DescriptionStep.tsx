import { Textarea } from '@mantine/core';
import { ZExperienceFields, type TExperience } from '@tourdesk/contracts';
import { Controller } from 'react-hook-form';
import { RichTextInput } from '../../../shared/components/RichTextInput';
import { useOfferEditorT } from '../editor-texts';
import { LinesInput } from './LinesInput';
import { StepForm } from './StepForm';
import { useStepForm } from './use-step-form';
import { useStepLanguage } from './use-step-language';

const schema = ZExperienceFields.pick({
  long_description: true,
  highlights: true,
  inclusions: true,
  exclusions: true,
  what_to_bring: true,
  important_information: true,
  translations: true,
});

export function DescriptionStep({ experience }: { experience: TExperience }) {
  const { form, save, saving, hasNext } = useStepForm(experience, 'description', schema, {
    long_description: experience.long_description,
    highlights: experience.highlights,
    inclusions: experience.inclusions,
    exclusions: experience.exclusions,
    what_to_bring: experience.what_to_bring,
    important_information: experience.important_information,
    translations: experience.translations,
  });
  const tx = useOfferEditorT();
  const t = useStepLanguage(experience, form, ['long_description', 'highlights', 'inclusions', 'exclusions', 'what_to_bring', 'important_information']);
  const lists = ['highlights', 'inclusions', 'exclusions', 'what_to_bring'] as const;
  return (
    <StepForm dirty={form.formState.isDirty} saving={saving} onSave={save} hasNext={hasNext}>
      {t.switcher}
      <Controller
        key={`long-${t.language}`}
        control={form.control}
        name={t.name('long_description')}
        render={({ field, fieldState }) => (
          <RichTextInput
            label={tx('field.long_description')}
            description={t.isMain ? tx('description.longHint') : tx('description.longHintTranslation')}
            value={(field.value as string | undefined) ?? ''}
            onChange={field.onChange}
            onBlur={field.onBlur}
            inputRef={field.ref}
            error={fieldState.error?.message}
          />
        )}
      />
      {lists.map((name) => (
        <Controller
          key={`${name}-${t.language}`}
          control={form.control}
          name={t.name(name)}
          render={({ field, fieldState }) => <LinesInput label={tx(`field.${name}`)} placeholder={t.placeholder(name)} value={(field.value as string[] | undefined) ?? []} onChange={field.onChange} error={fieldState.error?.message} />}
        />
      ))}
      <Textarea key={`info-${t.language}`} label={tx('field.important_information')} placeholder={t.placeholder('important_information')} autosize minRows={3} {...form.register(t.name('important_information'))} />
    </StepForm>
  );
}
