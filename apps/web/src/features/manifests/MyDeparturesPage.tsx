import { Alert, Loader, Stack, Text, Title } from '@mantine/core';
import dayjs from 'dayjs';
import { errorMessages } from '../../shared/api/errors';
import { useToday } from '../../shared/hooks/use-today';
import { useMyDeparturesQuery } from './api';
import { ManifestSheet } from './ManifestSheet';
import { useManifestsT } from './texts';

/** How far ahead "My departures" looks: today and the next 13 days. */
const DAYS = 14;

/** /my-departures: the departures the signed-in guide is assigned to (issue 34), each with its manifest. */
export default function MyDeparturesPage() {
  const t = useManifestsT();
  const today = useToday();
  const { data, error, isError } = useMyDeparturesQuery({ from: today, to: dayjs(today).add(DAYS - 1, 'day').format('YYYY-MM-DD') });
  return (
    <Stack gap="md">
      <Title order={2}>{t('mine.title')}</Title>
      {isError ? (
        <Alert color="red" role="alert">
          {errorMessages(error).join(' ')}
        </Alert>
      ) : !data ? (
        <Loader />
      ) : !data.guides && data.departures.length === 0 ? (
        <Alert color="gray">{t('mine.notGuide')}</Alert>
      ) : data.departures.length === 0 ? (
        <Text c="dimmed">{t('mine.none', { days: DAYS })}</Text>
      ) : (
        <>
          <Text size="sm">{t('mine.intro', { days: DAYS })}</Text>
          {data.departures.map((m) => (
            <ManifestSheet key={m.slot} m={m} />
          ))}
        </>
      )}
    </Stack>
  );
}
