import { Alert, Anchor, Badge, Button, Group, Loader, Stack, Tabs, Text, Title, Tooltip } from '@mantine/core';
import { IconArrowLeft, IconCopy } from '@tabler/icons-react';
import type { TExperience } from '@tourdesk/contracts';
import { en, type OfferEditorKey } from '@tourdesk/contracts/i18n/catalogs/backoffice/offer-editor/en';
import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { useCan } from '../../shared/hooks/use-can';
import { notifySuccess } from '../../shared/lib/toast';
import { useDuplicateExperienceMutation, useExperienceQuery, useUpdateExperienceMutation } from './api';
import { EDITOR_STEPS, editorPath, OFFER_COPIED, STATUS_COLOR, type EditorStep } from './constants';
import { useOfferEditorT } from './editor-texts';
import { OfferChannels } from './OfferChannels';

/**
 * The steps use the offer editor's texts too, which this page's chunk holds (it loads before any
 * step). Rollup keeps this page the chunk's own module, and so its manifest entry that
 * scripts/size.mjs measures, only when every binding the chunk lends the steps is one of the page's
 * exports: hence these two.
 */
export { useOfferEditorT } from './editor-texts';
export { en as offerEditorEn };

const OVERVIEW = '/products/experiences/overview';
type MissingKey = Extract<OfferEditorKey, `missing.${string}`>;
const MISSING = en as Readonly<Record<string, unknown>>;
type StepView = ComponentType<{ experience: TExperience }>;
/**
 * Each step is its own chunk, loaded when the step opens: the rich-text editor (Description), the
 * uploads and drag-and-drop (Media) and the rest load only for the step that uses them.
 */
const lazyStep = <K extends string>(load: () => Promise<Record<K, StepView>>, name: K) => lazy(async () => ({ default: (await load())[name] }));
const STEPS = {
  'basic-info': lazyStep(() => import('./steps/BasicInfoStep'), 'BasicInfoStep'),
  description: lazyStep(() => import('./steps/DescriptionStep'), 'DescriptionStep'),
  schedule: lazyStep(() => import('./steps/ScheduleStep'), 'ScheduleStep'),
  pricing: lazyStep(() => import('./steps/PricingStep'), 'PricingStep'),
  media: lazyStep(() => import('./steps/MediaStep'), 'MediaStep'),
  settings: lazyStep(() => import('./steps/SettingsStep'), 'SettingsStep'),
  'booking-info': lazyStep(() => import('./steps/BookingInfoStep'), 'BookingInfoStep'),
  preview: lazyStep(() => import('./steps/PreviewStep'), 'PreviewStep'),
} as const;

/** /products/experiences/editor/{experienceID}/{step}: one experience, step by step. */
export default function EditorPage() {
  const { experienceID = '', step = 'basic-info' } = useParams();
  const navigate = useNavigate();
  const { data: experience, isError, isLoading } = useExperienceQuery(experienceID, { skip: !experienceID });
  const [update, updating] = useUpdateExperienceMutation();
  const [duplicate, duplicating] = useDuplicateExperienceMutation();
  const t = useOfferEditorT();
  const managesStores = useCan(['Manage stores'], ['stores']);

  // The spec: an experience that fails to load sends the user back to the overview (the error is toasted).
  useEffect(() => {
    if (isError) navigate(OVERVIEW, { replace: true });
  }, [isError, navigate]);

  if (!(step in STEPS)) return <Navigate to={editorPath(experienceID)} replace />;
  if (isLoading || !experience) return <Loader />;
  const Step = STEPS[step as keyof typeof STEPS];
  // The API's words for what is missing, in the user's language when the catalog names them.
  const missing = experience.missing_for_activation.map((m) => (`missing.${m}` in MISSING ? t(`missing.${m}` as MissingKey) : m)).join(', ');

  const setStatus = async (status: 'Active' | 'Inactive') => {
    const res = await update({ id: experience.id, status });
    if (!('error' in res)) notifySuccess(status === 'Active' ? t('frame.onSale') : t('frame.offSale'));
  };

  return (
    <Stack gap="md">
      <Anchor component={Link} to={OVERVIEW} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} /> {t('frame.allOffers')}
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <div>
          <Group gap="sm">
            <Title order={2}>{experience.title}</Title>
            <Badge color={STATUS_COLOR[experience.status]} variant="light" data-testid="experience-status">
              {t(`status.${experience.status}`)}
            </Badge>
          </Group>
          <Text c="dimmed" size="sm">
            {t(`type.${experience.type}`)}
          </Text>
        </div>
        <Group>
          <Button
            variant="default"
            leftSection={<IconCopy size={16} />}
            loading={duplicating.isLoading}
            onClick={async () => {
              const res = await duplicate(experience.id);
              if (!('error' in res)) {
                notifySuccess(OFFER_COPIED);
                navigate(editorPath(res.data.id));
              }
            }}
          >
            {t('frame.duplicate')}
          </Button>
          {experience.status === 'Active' ? (
            <Button variant="light" color="orange" loading={updating.isLoading} onClick={() => setStatus('Inactive')}>
              {t('frame.deactivate')}
            </Button>
          ) : (
            <Tooltip label={t('frame.stillMissing', { missing })} disabled={missing === ''}>
              <Button loading={updating.isLoading} onClick={() => setStatus('Active')}>
                {t('frame.activate')}
              </Button>
            </Tooltip>
          )}
        </Group>
      </Group>
      {experience.status !== 'Active' && missing !== '' && (
        <Alert variant="light" color="blue" title={t('frame.beforeSale')}>
          {t('frame.add', { missing })}
        </Alert>
      )}
      {experience.status === 'Active' && managesStores && <OfferChannels experienceId={experience.id} />}
      <Tabs value={step} onChange={(v) => v && navigate(editorPath(experience.id, v as EditorStep))} keepMounted={false}>
        <Tabs.List>
          {EDITOR_STEPS.map((s) => (
            <Tabs.Tab key={s.step} value={s.step}>
              {t(`step.${s.step}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {/* Keyed by experience too: typed values are kept across refetches, never into another offer. */}
      <Suspense
        fallback={
          <Group gap="xs" role="status">
            <Loader size="sm" />
            <Text c="dimmed" size="sm">
              {t('frame.loadingStep')}
            </Text>
          </Group>
        }
      >
        <Step key={`${experience.id}/${step}`} experience={experience} />
      </Suspense>
    </Stack>
  );
}
