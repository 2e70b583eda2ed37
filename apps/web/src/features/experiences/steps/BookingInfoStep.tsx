import { Textarea } from '@mantine/core';
import { ZExperienceFields, type TExperience } from '@tourdesk/contracts';
import { StepForm } from './StepForm';
import { useStepForm } from './use-step-form';

const schema = ZExperienceFields.pick({ meeting_instructions: true, voucher_text: true });

/** What the customer receives after booking. */
export function BookingInfoStep({ experience }: { experience: TExperience }) {
  const { form, save, saving, hasNext } = useStepForm(experience, 'booking-info', schema, {
    meeting_instructions: experience.meeting_instructions,
    voucher_text: experience.voucher_text,
  });
  return (
    <StepForm dirty={form.formState.isDirty} saving={saving} onSave={save} hasNext={hasNext}>
      <Textarea label="Meeting instructions" description="Sent with the confirmation: where to be, when, and how to find you." autosize minRows={4} {...form.register('meeting_instructions')} />
      <Textarea label="Voucher text" description="Printed on the ticket." autosize minRows={3} {...form.register('voucher_text')} />
    </StepForm>
  );
}
