import { Anchor, Button, Card, Code, CopyButton, Group, Stack, Text, Title } from '@mantine/core';
import { IconCalendarPlus, IconCheck, IconCopy, IconRefresh } from '@tabler/icons-react';
import { ConfirmButton } from '../../shared/components/ConfirmButton';
import { notifySuccess } from '../../shared/lib/toast';
import { useCalendarFeedQuery, useResetCalendarFeedMutation } from './api';
import { useProfileT } from './texts';

/** Subscribe links of the big calendar apps for a feed's address (each opens the app's "subscribe" step with it). */
export function subscribeLinks(url: string, webcal: string, name: string) {
  return {
    google: `https://calendar.google.com/calendar/render?cid=${encodeURIComponent(webcal)}`,
    outlook: `https://outlook.live.com/calendar/0/addfromweb?url=${encodeURIComponent(url)}&name=${encodeURIComponent(name)}`,
    apple: webcal,
  };
}

/**
 * The member's private calendar feed (apps/api/src/modules/calendar-feeds): its address to copy,
 * subscribe links for Google, Outlook and Apple, and "Reset link", which makes a new address and
 * stops the old one. Shown to roles that may check in (View experiences, plan feature bookings).
 */
export function CalendarFeedCard() {
  const t = useProfileT();
  const { data: feed } = useCalendarFeedQuery();
  const [reset, { isLoading }] = useResetCalendarFeedMutation();
  if (!feed) return null;
  const links = feed.url && feed.webcal_url ? subscribeLinks(feed.url, feed.webcal_url, t('feed.title')) : null;
  return (
    <Card withBorder padding="lg" aria-label={t('feed.title')}>
      <Title order={4}>{t('feed.title')}</Title>
      <Text size="sm" c="dimmed" mb="md">
        {t('feed.description', { back: feed.days_back, ahead: feed.days_ahead })}
      </Text>
      {!feed.url || !links ? (
        <Stack align="flex-start">
          <Text size="sm">{t('feed.none')}</Text>
          <Button
            leftSection={<IconCalendarPlus size={16} />}
            loading={isLoading}
            onClick={async () => {
              const res = await reset();
              if ('data' in res && res.data) notifySuccess(t('feed.created'));
            }}
          >
            {t('feed.create')}
          </Button>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm" fw={500}>
              {t('feed.url')}
            </Text>
            <CopyButton value={feed.url}>
              {({ copied, copy }) => (
                <Button size="compact-xs" variant="light" leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />} onClick={copy} aria-label={t('feed.copyLabel')}>
                  {copied ? t('feed.copied') : t('feed.copy')}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Code block data-testid="calendar-feed-url" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {feed.url}
          </Code>
          <Text size="sm" c="dimmed">
            {t('feed.private')}
          </Text>
          <Text size="sm" fw={500}>
            {t('feed.subscribe')}
          </Text>
          <Stack gap={4}>
            <Text size="sm">
              <Anchor href={links.google} target="_blank" rel="noreferrer noopener" underline="always">
                {t('feed.google')}
              </Anchor>{' '}
              <Text span c="dimmed" size="sm">
                {t('feed.googleHint')}
              </Text>
            </Text>
            <Text size="sm">
              <Anchor href={links.outlook} target="_blank" rel="noreferrer noopener" underline="always">
                {t('feed.outlook')}
              </Anchor>{' '}
              <Text span c="dimmed" size="sm">
                {t('feed.outlookHint')}
              </Text>
            </Text>
            <Text size="sm">
              <Anchor href={links.apple} underline="always">{t('feed.apple')}</Anchor>{' '}
              <Text span c="dimmed" size="sm">
                {t('feed.appleHint')}
              </Text>
            </Text>
          </Stack>
          <Text size="xs" c="dimmed">
            {t('feed.refresh')}
          </Text>
          <Group justify="flex-end">
            <ConfirmButton
              variant="light"
              color="red"
              leftSection={<IconRefresh size={16} />}
              title={t('feed.resetTitle')}
              message={t('feed.resetMessage')}
              confirmLabel={t('feed.reset')}
              onConfirm={async () => {
                const res = await reset();
                if ('data' in res && res.data) notifySuccess(t('feed.resetDone'));
                return 'data' in res;
              }}
            >
              {t('feed.reset')}
            </ConfirmButton>
          </Group>
        </Stack>
      )}
    </Card>
  );
}
