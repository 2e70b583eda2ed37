import { ActionIcon, Autocomplete, Button, Checkbox, Group, Modal, NumberInput, Select, Stack, TagsInput, Text, Textarea, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconTrash } from '@tabler/icons-react';
import { ANSWER_TYPES, PRICING_CATEGORY_TYPES, type TBookingQuestion, type TCancellationPolicy, type TLocationList, type TMeetingPoint, type TPricingCategory } from '@tourdesk/contracts';
import { useState, type ReactNode } from 'react';
import { api } from '../../shared/api/api';
import { fieldErrors } from '../../shared/api/errors';
import { useHost } from '../../shared/auth/host-context';
import { MapPreview } from '../../shared/components/MapPreview';
import { TranslationsEditor, type TranslationsValue } from '../../shared/components/TranslatedFields';
import { notifySuccess } from '../../shared/lib/toast';
import { useCommonT } from '../../shared/i18n/common';
import { useOfferSettingsT } from './settings-texts';

/**
 * What an offer's steps choose from — pricing categories, meeting points, cancellation policies,
 * booking questions — made right where they are chosen: a small dialog; the step reads its list
 * again and chooses the new one at once. The steps import them through steps/InlineCreate.tsx, which
 * fetches this module when a dialog is first opened.
 */
const inlineApi = api.injectEndpoints({
  endpoints: (build) => ({
    createInlineCategory: build.mutation<TPricingCategory, { type: string; label: string; occupies_seat: boolean }>({
      query: (body) => ({ url: 'pricing-categories/', method: 'POST', body }),
      invalidatesTags: ['PricingCategory'],
    }),
    /** Places as typed (the embedded towns and cities, or the configured geocoder). */
    locationSuggestions: build.query<TLocationList, string>({ query: (q) => ({ url: 'locations/autocomplete/', params: { q, limit: 8 } }) }),
    createInlineMeetingPoint: build.mutation<TMeetingPoint, { name: string; address: string; instructions: string; latitude: number | null; longitude: number | null }>({
      query: (body) => ({ url: 'meeting-points/', method: 'POST', body }),
    }),
    createInlinePolicy: build.mutation<TCancellationPolicy, { name: string; description: string; rules: { hours_before: number; refund_percent: number }[]; translations: TranslationsValue }>({
      query: (body) => ({ url: 'cancellation-policies/', method: 'POST', body }),
    }),
    createInlineQuestion: build.mutation<TBookingQuestion, { question: string; answer_type: string; choices: string[]; required: boolean; per_participant: boolean; translations: TranslationsValue }>({
      query: (body) => ({ url: 'booking-questions/', method: 'POST', body }),
    }),
  }),
});

/** The first refusal of a translation (its field is translations.<language>.<field>). */
const translationError = (errors: Record<string, string>) => Object.entries(errors).find(([attr]) => attr.startsWith('translations'))?.[1];

function Dialog({ title, opened, onClose, children }: { title: string; opened: boolean; onClose: () => void; children: ReactNode }) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      {children}
    </Modal>
  );
}

function Actions({ busy, onCancel, submit }: { busy: boolean; onCancel: () => void; submit: string }) {
  const common = useCommonT();
  return (
    <Group justify="flex-end" mt="md">
      <Button variant="default" onClick={onCancel}>
        {common('cancel')}
      </Button>
      <Button type="submit" loading={busy}>
        {submit}
      </Button>
    </Group>
  );
}

export function NewCategoryDialog({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: (c: TPricingCategory) => void }) {
  const t = useOfferSettingsT();
  const [create, state] = inlineApi.useCreateInlineCategoryMutation();
  const [type, setType] = useState<string>('Adult');
  const [label, setLabel] = useState('');
  const [seat, setSeat] = useState(true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  return (
    <Dialog title={t('category.new')} opened={opened} onClose={onClose}>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          const res = await create({ type, label: label.trim(), occupies_seat: seat });
          if ('error' in res) return setErrors(fieldErrors(res.error as never));
          notifySuccess(t('category.created', { label: res.data.label }));
          setLabel('');
          onCreated(res.data);
        }}
      >
        <Stack>
          <Select label={t('category.type')} data={PRICING_CATEGORY_TYPES.map((value) => ({ value, label: t(`categoryType.${value}`) }))} value={type} onChange={(v) => v && setType(v)} allowDeselect={false} error={errors.type} />
          <TextInput label={t('category.label')} description={t('category.labelHint')} value={label} onChange={(e) => setLabel(e.currentTarget.value)} error={errors.label} data-autofocus withAsterisk />
          <Checkbox label={t('category.seat')} description={t('category.seatHint')} checked={seat} onChange={(e) => setSeat(e.currentTarget.checked)} />
          <Actions busy={state.isLoading} onCancel={onClose} submit={t('category.create')} />
        </Stack>
      </form>
    </Dialog>
  );
}

export function NewMeetingPointDialog({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: (m: TMeetingPoint) => void }) {
  const t = useOfferSettingsT();
  const [create, state] = inlineApi.useCreateInlineMeetingPointMutation();
  const { config } = useHost();
  const [name, setName] = useState('');
  const [address, setAddress] = useState('');
  const [typed] = useDebouncedValue(address.trim(), 300);
  const { data: suggestions } = inlineApi.useLocationSuggestionsQuery(typed, { skip: typed.length < 2 });
  const [position, setPosition] = useState<{ latitude: number; longitude: number } | null>(null);
  const [instructions, setInstructions] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const options = (suggestions?.results ?? []).map((l) => l.label);
  return (
    <Dialog title={t('meetingPoint.new')} opened={opened} onClose={onClose}>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          const res = await create({ name: name.trim(), address: address.trim(), instructions: instructions.trim(), latitude: position?.latitude ?? null, longitude: position?.longitude ?? null });
          if ('error' in res) return setErrors(fieldErrors(res.error as never));
          notifySuccess(t('meetingPoint.created', { name: res.data.name }));
          setName('');
          setAddress('');
          setPosition(null);
          setInstructions('');
          onCreated(res.data);
        }}
      >
        <Stack>
          <TextInput label={t('meetingPoint.name')} placeholder={t('meetingPoint.namePlaceholder')} value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name} data-autofocus withAsterisk />
          <Autocomplete
            label={t('meetingPoint.address')}
            description={t('meetingPoint.addressHint')}
            placeholder={t('meetingPoint.addressPlaceholder')}
            data={[...new Set(options)]}
            value={address}
            onChange={(v) => {
              setAddress(v);
              const chosen = suggestions?.results.find((l) => l.label === v);
              setPosition(chosen ? { latitude: chosen.latitude, longitude: chosen.longitude } : null);
            }}
            error={errors.address}
            filter={({ options: all }) => all}
          />
          {position && (
            <Text size="xs" c="dimmed" data-testid="meeting-point-position">
              {position.latitude.toFixed(5)}, {position.longitude.toFixed(5)}
            </Text>
          )}
          {position && <MapPreview latitude={position.latitude} longitude={position.longitude} tiles={config.map_tile_url} label={t('meetingPoint.map', { address })} />}
          <Textarea label={t('meetingPoint.instructions')} autosize minRows={2} value={instructions} onChange={(e) => setInstructions(e.currentTarget.value)} error={errors.instructions} />
          <Actions busy={state.isLoading} onCancel={onClose} submit={t('meetingPoint.create')} />
        </Stack>
      </form>
    </Dialog>
  );
}

export function NewPolicyDialog({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: (p: TCancellationPolicy) => void }) {
  const t = useOfferSettingsT();
  const [create, state] = inlineApi.useCreateInlinePolicyMutation();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [rules, setRules] = useState<{ hours_before: number; refund_percent: number }[]>([{ hours_before: 24, refund_percent: 100 }]);
  const [translations, setTranslations] = useState<TranslationsValue>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const setRule = (i: number, key: 'hours_before' | 'refund_percent', value: number) => setRules(rules.map((r, j) => (j === i ? { ...r, [key]: value } : r)));
  return (
    <Dialog title={t('policy.new')} opened={opened} onClose={onClose}>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          const res = await create({ name: name.trim(), description: description.trim(), rules, translations });
          if ('error' in res) return setErrors(fieldErrors(res.error as never));
          notifySuccess(t('policy.created', { name: res.data.name }));
          setName('');
          setDescription('');
          setTranslations({});
          onCreated(res.data);
        }}
      >
        <Stack>
          <TranslationsEditor
            base={{ name, description }}
            value={translations}
            onChange={setTranslations}
            error={translationError(errors)}
            fields={[
              { name: 'name', label: t('policy.name') },
              { name: 'description', label: t('policy.description'), multiline: true },
            ]}
          >
            <TextInput label={t('policy.name')} placeholder={t('policy.namePlaceholder')} value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name} data-autofocus withAsterisk />
            <Textarea label={t('policy.description')} autosize minRows={2} value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={errors.description} />
          </TranslationsEditor>
          <Text size="sm" fw={500}>
            {t('policy.refunds')}
          </Text>
          {rules.map((r, i) => (
            <Group key={i} gap="xs" align="flex-end" wrap="nowrap">
              <NumberInput label={i === 0 ? t('policy.hoursBefore') : undefined} aria-label={t('policy.ruleHours', { n: i + 1 })} min={0} value={r.hours_before} onChange={(v) => setRule(i, 'hours_before', Number(v) || 0)} w={190} />
              <NumberInput label={i === 0 ? t('policy.refund') : undefined} aria-label={t('policy.ruleRefund', { n: i + 1 })} min={0} max={100} value={r.refund_percent} onChange={(v) => setRule(i, 'refund_percent', Number(v) || 0)} w={110} />
              <ActionIcon variant="subtle" color="red" aria-label={t('policy.removeRule', { n: i + 1 })} onClick={() => setRules(rules.filter((_, j) => j !== i))} mb={4}>
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
          {errors.rules && (
            <Text c="red" size="sm">
              {errors.rules}
            </Text>
          )}
          <Group>
            <Button variant="light" size="xs" onClick={() => setRules([...rules, { hours_before: 0, refund_percent: 0 }])} disabled={rules.length >= 10}>
              {t('policy.addRule')}
            </Button>
          </Group>
          <Actions busy={state.isLoading} onCancel={onClose} submit={t('policy.create')} />
        </Stack>
      </form>
    </Dialog>
  );
}

export function NewQuestionDialog({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: (q: TBookingQuestion) => void }) {
  const t = useOfferSettingsT();
  const [create, state] = inlineApi.useCreateInlineQuestionMutation();
  const [question, setQuestion] = useState('');
  const [answerType, setAnswerType] = useState<string>('text');
  const [choices, setChoices] = useState<string[]>([]);
  const [required, setRequired] = useState(false);
  const [perParticipant, setPerParticipant] = useState(false);
  const [translations, setTranslations] = useState<TranslationsValue>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  return (
    <Dialog title={t('question.new')} opened={opened} onClose={onClose}>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          const res = await create({ question: question.trim(), answer_type: answerType, choices: answerType === 'choice' ? choices : [], required, per_participant: perParticipant, translations });
          if ('error' in res) return setErrors(fieldErrors(res.error as never));
          notifySuccess(t('question.created'));
          setQuestion('');
          setChoices([]);
          setTranslations({});
          onCreated(res.data);
        }}
      >
        <Stack>
          <TranslationsEditor
            base={{ question, choices: answerType === 'choice' ? choices : [] }}
            value={translations}
            onChange={setTranslations}
            error={translationError(errors)}
            fields={[
              { name: 'question', label: t('question.question') },
              ...(answerType === 'choice' ? [{ name: 'choices', label: t('question.options'), list: true }] : []),
            ]}
          >
            <TextInput label={t('question.question')} placeholder={t('question.placeholder')} value={question} onChange={(e) => setQuestion(e.currentTarget.value)} error={errors.question} data-autofocus withAsterisk />
            <Select label={t('question.answer')} data={ANSWER_TYPES.map((a) => ({ value: a, label: t(`answer.${a}`) }))} value={answerType} onChange={(v) => v && setAnswerType(v)} allowDeselect={false} />
            {answerType === 'choice' && <TagsInput label={t('question.options')} description={t('question.optionsHint')} value={choices} onChange={setChoices} error={errors.choices} />}
          </TranslationsEditor>
          <Checkbox label={t('question.required')} checked={required} onChange={(e) => setRequired(e.currentTarget.checked)} />
          <Checkbox label={t('question.perParticipant')} checked={perParticipant} onChange={(e) => setPerParticipant(e.currentTarget.checked)} />
          <Actions busy={state.isLoading} onCancel={onClose} submit={t('question.create')} />
        </Stack>
      </form>
    </Dialog>
  );
}
