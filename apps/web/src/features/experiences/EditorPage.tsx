import { Alert, Anchor, Badge, Button, Group, Loader, Stack, Tabs, Text, Title, Tooltip } from '@mantine/core';
import { IconArrowLeft, IconCopy } from '@tabler/icons-react';
import type { TExperience } from '@tourdesk/contracts';
import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { notifySuccess } from '../../shared/lib/toast';
import { useDuplicateExperienceMutation, useExperienceQuery, useUpdateExperienceMutation } from './api';
import { EDITOR_STEPS, editorPath, OFFER_COPIED, STATUS_COLOR, type EditorStep } from './constants';

const OVERVIEW = '/products/experiences/overview';
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

  // The spec: an experience that fails to load sends the user back to the overview (the error is toasted).
  useEffect(() => {
    if (isError) navigate(OVERVIEW, { replace: true });
  }, [isError, navigate]);

  if (!(step in STEPS)) return <Navigate to={editorPath(experienceID)} replace />;
  if (isLoading || !experience) return <Loader />;
  const Step = STEPS[step as keyof typeof STEPS];
  const missing = experience.missing_for_activation;

  const setStatus = async (status: 'Active' | 'Inactive') => {
    const res = await update({ id: experience.id, status });
    if (!('error' in res)) notifySuccess(status === 'Active' ? 'The offer is on sale.' : 'The offer is no longer on sale.');
  };

  return (
    <Stack gap="md">
      <Anchor component={Link} to={OVERVIEW} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} /> All offers
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <div>
          <Group gap="sm">
            <Title order={2}>{experience.title}</Title>
            <Badge color={STATUS_COLOR[experience.status]} variant="light" data-testid="experience-status">
              {experience.status}
            </Badge>
          </Group>
          <Text c="dimmed" size="sm">
            {experience.type}
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
            Duplicate
          </Button>
          {experience.status === 'Active' ? (
            <Button variant="light" color="orange" loading={updating.isLoading} onClick={() => setStatus('Inactive')}>
              Deactivate
            </Button>
          ) : (
            <Tooltip label={`Still missing: ${missing.join(', ')}`} disabled={missing.length === 0}>
              <Button loading={updating.isLoading} onClick={() => setStatus('Active')}>
                Activate
              </Button>
            </Tooltip>
          )}
        </Group>
      </Group>
      {experience.status !== 'Active' && missing.length > 0 && (
        <Alert variant="light" color="blue" title="Before it can go on sale">
          Add {missing.join(', ')}.
        </Alert>
      )}
      <Tabs value={step} onChange={(v) => v && navigate(editorPath(experience.id, v as EditorStep))} keepMounted={false}>
        <Tabs.List>
          {EDITOR_STEPS.map((s) => (
            <Tabs.Tab key={s.step} value={s.step}>
              {s.label}
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
              Loading the step…
            </Text>
          </Group>
        }
      >
        <Step key={`${experience.id}/${step}`} experience={experience} />
      </Suspense>
    </Stack>
  );
}
