import { Group, MultiSelect, NumberInput, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { bpToPercent, CONFIRMATION_MODES, percentToBp, ZExperienceFields, type TBookingQuestion, type TCancellationPolicy, type TExperience, type TInventoryItem, type TPaginated } from '@tourdesk/contracts';
import { Controller } from 'react-hook-form';
import { api } from '../../../shared/api/api';
import { useAppSelector } from '../../../shared/hooks/store';
import { hasPermissions } from '../../../shared/lib/permissions';
import { NewButton, NewPolicyDialog, NewQuestionDialog } from './InlineCreate';
import { StepForm } from './StepForm';
import { useStepForm } from './use-step-form';
import { useCommonT } from '../../../shared/i18n/common';
import { useOfferSettingsT } from '../settings-texts';
import { DepositRuleField } from '../../../shared/components/DepositRuleField';

/** The refusal below, put in the user's language where it is shown. */
const MAX_BELOW_MIN = 'The maximum must not be below the minimum.';

const schema = ZExperienceFields.pick({
  min_participants: true,
  max_participants: true,
  booking_cutoff_minutes: true,
  vat_rate_bp: true,
  confirmation_mode: true,
  deposit: true,
  guests_per_guide: true,
  cancellation_policy: true,
  booking_questions: true,
  extras: true,
}).refine((v) => v.max_participants == null || v.min_participants == null || v.min_participants <= v.max_participants, {
  error: MAX_BELOW_MIN,
  path: ['max_participants'],
});

const settingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    policies: build.query<TPaginated<TCancellationPolicy>, void>({ query: () => ({ url: 'cancellation-policies/', params: { page_size: 50 } }) }),
    questions: build.query<TPaginated<TBookingQuestion>, void>({ query: () => ({ url: 'booking-questions/', params: { page_size: 50 } }) }),
    extras: build.query<TPaginated<TInventoryItem>, void>({ query: () => ({ url: 'inventory-items/', params: { page_size: 50 } }) }),
  }),
});

export function SettingsStep({ experience }: { experience: TExperience }) {
  const t = useOfferSettingsT();
  const common = useCommonT();
  const user = useAppSelector((s) => s.auth.user);
  const appInfo = useAppSelector((s) => s.auth.appInfo);
  const currency = useAppSelector((s) => s.auth.user?.base_account?.currency) ?? 'EUR';
  const canSeeInventory = hasPermissions(user, appInfo, ['Manage inventory']);
  const { data: policies, refetch: refetchPolicies } = settingsApi.usePoliciesQuery();
  const { data: questions, refetch: refetchQuestions } = settingsApi.useQuestionsQuery();
  const [creating, setCreating] = useState<'policy' | 'question' | null>(null);
  const { data: extras } = settingsApi.useExtrasQuery(undefined, { skip: !canSeeInventory });
  const { form, save, saving, hasNext } = useStepForm(experience, 'settings', schema, {
    min_participants: experience.min_participants,
    max_participants: experience.max_participants,
    booking_cutoff_minutes: experience.booking_cutoff_minutes,
    vat_rate_bp: experience.vat_rate_bp,
    confirmation_mode: experience.confirmation_mode,
    deposit: experience.deposit,
    guests_per_guide: experience.guests_per_guide,
    cancellation_policy: experience.cancellation_policy,
    booking_questions: experience.booking_questions,
    extras: experience.extras,
  });
  const num = (name: 'min_participants' | 'max_participants' | 'booking_cutoff_minutes', label: string, description?: string, nullable = false) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field, fieldState }) => (
        <NumberInput
          label={label}
          description={description}
          min={name === 'booking_cutoff_minutes' ? 0 : 1}
          value={field.value ?? ''}
          onChange={(v) => field.onChange(v === '' ? (nullable ? null : undefined) : Number(v))}
          error={fieldState.error?.message === MAX_BELOW_MIN ? t('settings.maxBelowMin') : fieldState.error?.message}
        />
      )}
    />
  );
  return (
    <StepForm dirty={form.formState.isDirty} saving={saving} onSave={save} hasNext={hasNext}>
      {num('min_participants', t('settings.minParticipants'))}
      {num('max_participants', t('settings.maxParticipants'), t('settings.maxHint'), true)}
      {num('booking_cutoff_minutes', t('settings.cutoff'), t('settings.cutoffHint'))}
      <Controller
        control={form.control}
        name="guests_per_guide"
        render={({ field, fieldState }) => (
          // A guide per so many guests (issue 34): each departure then sells only what its guides can
          // take. Not clamped while typing, so a 0 is refused with a reason rather than turned into 1;
          // what the API refuses (a departure already holding more than its guides would take) comes
          // back next to the field and as the error toast.
          <NumberInput
            label={t('settings.guestsPerGuide')}
            description={t('settings.guestsPerGuideHint')}
            min={1}
            max={1000}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            value={field.value ?? ''}
            onChange={(v) => field.onChange(v === '' ? null : Number(v))}
            error={fieldState.error && (fieldState.error.type === 'server' ? fieldState.error.message : t('settings.guestsPerGuideRange'))}
          />
        )}
      />
      <Controller
        control={form.control}
        name="vat_rate_bp"
        render={({ field, fieldState }) => (
          <NumberInput
            label={t('settings.vat')}
            description={t('settings.vatHint')}
            min={0}
            max={100}
            decimalScale={2}
            suffix=" %"
            value={field.value == null ? '' : bpToPercent(field.value)}
            onChange={(v) => field.onChange(v === '' ? null : percentToBp(Number(v)))}
            error={fieldState.error?.message}
          />
        )}
      />
      <Controller
        control={form.control}
        name="confirmation_mode"
        render={({ field }) => (
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('settings.confirmation')}
            </Text>
            <SegmentedControl value={field.value ?? 'instant'} onChange={field.onChange} data={CONFIRMATION_MODES.map((value) => ({ value, label: t(`confirmation.${value}`) }))} />
          </Stack>
        )}
      />
      <Controller
        control={form.control}
        name="deposit"
        render={({ field, fieldState }) => (
          <DepositRuleField
            value={field.value ?? null}
            onChange={field.onChange}
            currency={currency}
            error={fieldState.error?.message ?? (fieldState.error as { value?: { message?: string } } | undefined)?.value?.message}
            labels={{
              title: t('deposit.title'),
              hint: t('deposit.hint'),
              none: t('deposit.none'),
              percent: t('deposit.percent'),
              amount: t('deposit.amount'),
              percentValue: t('deposit.percentValue'),
              amountValue: t('deposit.amountValue'),
              restDue: t('deposit.restDue'),
              onSite: t('deposit.onSite'),
              daysBefore: t('deposit.daysBefore'),
              days: t('deposit.days'),
            }}
          />
        )}
      />
      <Controller
        control={form.control}
        name="cancellation_policy"
        render={({ field }) => (
          <Stack gap={4}>
            <Select
              label={t('settings.policy')}
              data={(policies?.results ?? []).map((p) => ({ value: p.id, label: p.name }))}
              value={field.value ?? null}
              onChange={(v) => field.onChange(v)}
              clearable
              placeholder={policies?.results.length === 0 ? t('settings.noneYet') : common('none')}
            />
            <Group>
              <NewButton label={t('policy.new')} onClick={() => setCreating('policy')} />
            </Group>
            <NewPolicyDialog
              opened={creating === 'policy'}
              onClose={() => setCreating(null)}
              onCreated={async (p) => {
                await refetchPolicies();
                field.onChange(p.id);
                setCreating(null);
              }}
            />
          </Stack>
        )}
      />
      <Controller
        control={form.control}
        name="booking_questions"
        render={({ field }) => (
          <Stack gap={4}>
            <MultiSelect
              label={t('settings.questions')}
              placeholder={questions?.results.length === 0 ? t('settings.noneYet') : undefined}
              data={(questions?.results ?? []).map((q) => ({ value: q.id, label: q.question }))}
              value={field.value ?? []}
              onChange={field.onChange}
            />
            <Group>
              <NewButton label={t('question.new')} onClick={() => setCreating('question')} />
            </Group>
            <NewQuestionDialog
              opened={creating === 'question'}
              onClose={() => setCreating(null)}
              onCreated={async (q) => {
                await refetchQuestions();
                field.onChange([...(field.value ?? []), q.id]);
                setCreating(null);
              }}
            />
          </Stack>
        )}
      />
      {canSeeInventory && (
        <Controller
          control={form.control}
          name="extras"
          render={({ field }) => (
            <MultiSelect
              label={t('settings.extras')}
              data={(extras?.results ?? []).map((i) => ({ value: i.id, label: `${i.name} (${t(`inventoryType.${i.type}`)})` }))}
              value={field.value ?? []}
              onChange={field.onChange}
            />
          )}
        />
      )}
    </StepForm>
  );
}
