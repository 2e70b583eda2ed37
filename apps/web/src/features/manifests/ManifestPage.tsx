import { Anchor, Button, Group, Loader, Stack, Title } from '@mantine/core';
import { IconArrowLeft, IconFileSpreadsheet, IconFileTypePdf, IconPrinter } from '@tabler/icons-react';
import { useParams, Link } from 'react-router';
import { ErrorPanel } from '../../shared/components/ErrorPanel';
import { useManifestDownloadMutation, useDepartureManifestQuery } from './api';
import { ManifestSheet } from './ManifestSheet';
import { GuidesPanel } from './GuidesPanel';
import { WaitlistPanel } from './WaitlistPanel';
import { useManifestsT } from './texts';

/** /bookings/manifests/{slotId}: one departure's manifest, to print or export. */
export default function ManifestPage() {
  const t = useManifestsT();
  const { slotId = '' } = useParams();
  const { data: m, isError } = useDepartureManifestQuery(slotId, { skip: !slotId });
  const [download, downloading] = useManifestDownloadMutation();
  if (isError) return <ErrorPanel message={t('notFound')} actionPath="/bookings/manifests" actionLabel={t('todaysManifests')} />;
  if (!m) return <Loader />;
  return (
    <Stack gap="md">
      <Group justify="space-between" className="no-print">
        <Stack gap={4}>
          <Anchor component={Link} to={`/bookings/manifests?date=${m.local_date}`} size="sm">
            <Group gap={4}>
              <IconArrowLeft size={14} /> {t('allOfDay')}
            </Group>
          </Anchor>
          <Title order={2}>{t('manifest')}</Title>
        </Stack>
        <Group gap="xs">
          <Button leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
            {t('print')}
          </Button>
          <Button variant="default" leftSection={<IconFileSpreadsheet size={16} />} loading={downloading.isLoading && downloading.originalArgs?.url.endsWith('.csv')} onClick={() => void download({ url: `manifests/${m.slot}/export.csv`, fallbackName: 'manifest.csv' })}>
            CSV
          </Button>
          <Button variant="default" leftSection={<IconFileTypePdf size={16} />} loading={downloading.isLoading && downloading.originalArgs?.url.endsWith('.pdf')} onClick={() => void download({ url: `manifests/${m.slot}/manifest.pdf`, fallbackName: 'manifest.pdf' })}>
            PDF
          </Button>
        </Group>
      </Group>
      <ManifestSheet m={m} />
      <GuidesPanel slot={m.slot} />
      <WaitlistPanel slot={m.slot} zone={m.time_zone} />
    </Stack>
  );
}
