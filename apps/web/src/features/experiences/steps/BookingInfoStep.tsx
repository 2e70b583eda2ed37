import { Textarea } from '@mantine/core';
import { ZExperienceFields, type TExperience } from '@tourdesk/contracts';
import { useOfferEditorT } from '../editor-texts';
import { StepForm } from './StepForm';
import { useStepForm } from './use-step-form';
import { useStepLanguage } from './use-step-language';

const schema = ZExperienceFields.pick({ meeting_instructions: true, voucher_text: true, translations: true });

/** What the customer receives after booking. */
export function BookingInfoStep({ experience }: { experience: TExperience }) {
  const { form, save, saving, hasNext } = useStepForm(experience, 'booking-info', schema, {
    meeting_instructions: experience.meeting_instructions,
    voucher_text: experience.voucher_text,
    translations: experience.translations,
  });
  const tx = useOfferEditorT();
  const t = useStepLanguage(experience, form, ['meeting_instructions', 'voucher_text']);
  const errors = form.formState.errors;
  const errorOf = (name: 'meeting_instructions' | 'voucher_text') => (t.isMain ? errors[name]?.message : errors.translations?.[t.language]?.[name]?.message);
  return (
    <StepForm dirty={form.formState.isDirty} saving={saving} onSave={save} hasNext={hasNext}>
      {t.switcher}
      <Textarea
        key={`meeting-${t.language}`}
        label={tx('field.meeting_instructions')}
        description={tx('booking.meetingHint')}
        placeholder={t.placeholder('meeting_instructions')}
        autosize
        minRows={4}
        {...form.register(t.name('meeting_instructions'))}
        error={errorOf('meeting_instructions')}
      />
      <Textarea key={`voucher-${t.language}`} label={tx('field.voucher_text')} description={tx('booking.voucherHint')} placeholder={t.placeholder('voucher_text')} autosize minRows={3} {...form.register(t.name('voucher_text'))} error={errorOf('voucher_text')} />
    </StepForm>
  );
}
