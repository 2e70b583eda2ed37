import { Badge, Card, Group, Image, List, SimpleGrid, Stack, Text, Title, Typography } from '@mantine/core';
import type { TExperience } from '@tourdesk/contracts';
import dayjs from 'dayjs';
import { useAppSelector } from '../../../shared/hooks/store';
import { useToday } from '../../../shared/hooks/use-today';
import { formatMoney } from '../../../shared/lib/money';
import { clock, formatDisplayDate } from '../../../shared/lib/dates';
import { useMeetingPointsQuery, usePricingCategoriesQuery, useUpcomingSlotsQuery } from '../api';
import { useOfferEditorT } from '../editor-texts';


/** Today in the organisation's zone and three weeks on, as the API's dates. */
const nextThreeWeeks = (today: string) => ({ from: today, to: dayjs(today).add(21, 'day').format('YYYY-MM-DD') });

/** The experience as a customer will see it in the web store. */
export function PreviewStep({ experience }: { experience: TExperience }) {
  const t = useOfferEditorT();
  const duration = (m: number | null) =>
    m === null ? null : m < 60 ? t('preview.minutes', { minutes: m }) : m % 60 ? t('preview.hoursMinutes', { hours: Math.floor(m / 60), minutes: m % 60 }) : t('preview.hours', { hours: m / 60 });
  const currency = useAppSelector((s) => s.auth.user?.base_account?.currency) ?? 'EUR';
  const { data } = usePricingCategoriesQuery();
  const today = useToday();
  const label = (id: string) => data?.results.find((c) => c.id === id)?.label ?? '';
  const images = experience.images.filter((i) => i.status === 'ready');
  const base = experience.prices.filter((p) => !p.valid_from && !p.valid_to && p.weekdays.length === 0);
  // "From" is the lowest price anyone pays (a free lap infant is no starting price).
  const paid = base.map((p) => p.retail_price).filter((n) => n > 0);
  const { data: slots } = useUpcomingSlotsQuery({ experience: experience.id, ...nextThreeWeeks(today) });
  // Not closed and with seats: what customers will choose from once the offer is on sale (a Draft's slots are not open yet).
  const coming = (slots ?? []).filter((s) => !s.closed && s.remaining > 0).slice(0, 8);
  const { data: allPoints } = useMeetingPointsQuery();
  const points = (allPoints?.results ?? []).filter((m) => experience.meeting_points.includes(m.id));
  const lists = [
    [t('field.highlights'), experience.highlights],
    [t('field.inclusions'), experience.inclusions],
    [t('field.exclusions'), experience.exclusions],
    [t('field.what_to_bring'), experience.what_to_bring],
  ] as const;
  return (
    <Card withBorder padding="xl" maw={1100} aria-label={t('preview.label')}>
      <Stack gap="md">
        {images.length > 0 && (
          <SimpleGrid cols={{ base: 1, sm: images.length > 1 ? 2 : 1 }} spacing="xs">
            <Image src={images[0]!.url ?? undefined} h={320} radius="md" fit="cover" alt={experience.title} />
            {images.length > 1 && (
              <SimpleGrid cols={2} spacing="xs">
                {images.slice(1, 5).map((i) => (
                  <Image key={i.id} src={i.thumbnail_url ?? undefined} h={155} radius="md" fit="cover" alt="" />
                ))}
              </SimpleGrid>
            )}
          </SimpleGrid>
        )}
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={2}>{experience.title}</Title>
            <Group gap="xs" mt={4}>
              <Badge variant="light">{t(`type.${experience.type}`)}</Badge>
              {duration(experience.duration_minutes) && <Badge variant="light" color="gray">{duration(experience.duration_minutes)}</Badge>}
              {experience.languages.map((l) => (
                <Badge key={l} variant="outline" color="gray">
                  {l.toUpperCase()}
                </Badge>
              ))}
            </Group>
          </div>
          {base.length > 0 && (
            <Stack gap={0} align="flex-end">
              {paid.length > 0 ? (
                <>
                  <Text size="sm" c="dimmed">
                    {t('preview.from')}
                  </Text>
                  <Text size="xl" fw={700} data-testid="preview-from-price">
                    {formatMoney(Math.min(...paid), currency)}
                  </Text>
                </>
              ) : (
                <Text size="xl" fw={700} data-testid="preview-from-price">
                  {t('preview.free')}
                </Text>
              )}
            </Stack>
          )}
        </Group>
        {experience.short_description && <Text size="lg">{experience.short_description}</Text>}
        {experience.long_description && (
          <Typography>
            <div dangerouslySetInnerHTML={{ __html: experience.long_description }} />
          </Typography>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {lists
            .filter(([, items]) => items.length > 0)
            .map(([title, items]) => (
              <div key={title}>
                <Text fw={600} mb={4}>
                  {title}
                </Text>
                <List size="sm">
                  {items.map((item) => (
                    <List.Item key={item}>{item}</List.Item>
                  ))}
                </List>
              </div>
            ))}
        </SimpleGrid>
        {base.length > 0 && (
          <div>
            <Text fw={600} mb={4}>
              {t('preview.prices')}
            </Text>
            {base.map((p) => (
              <Group key={p.id} justify="space-between" maw={320}>
                <Text size="sm">{label(p.pricing_category)}</Text>
                <Text size="sm">{formatMoney(p.retail_price, currency)}</Text>
              </Group>
            ))}
          </div>
        )}
        {(points.length > 0 || experience.meeting_instructions) && (
          <div data-testid="preview-meeting">
            <Text fw={600} mb={4}>
              {t('preview.whereToMeet')}
            </Text>
            {points.map((m) => (
              <Text key={m.id} size="sm">
                <b>{m.name}</b>
                {m.address ? `, ${m.address}` : ''}
                {m.instructions ? ` — ${m.instructions}` : ''}
              </Text>
            ))}
            {experience.meeting_instructions && (
              <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
                {experience.meeting_instructions}
              </Text>
            )}
          </div>
        )}
        <div data-testid="preview-times">
          <Text fw={600} mb={4}>
            {t('preview.comingTimes')}
          </Text>
          {coming.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('preview.noTimes')}
            </Text>
          ) : (
            <Group gap="xs">
              {coming.map((s) => (
                <Badge key={s.id} variant="light" color={s.status === 'limited' ? 'orange' : 'green'} size="lg" tt="none">
                  {t('preview.slot', { date: formatDisplayDate(s.starts_at, s.time_zone), time: clock(s.local_time), remaining: s.remaining })}
                </Badge>
              ))}
            </Group>
          )}
        </div>
        {experience.important_information && (
          <div>
            <Text fw={600} mb={4}>
              {t('field.important_information')}
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
              {experience.important_information}
            </Text>
          </div>
        )}
      </Stack>
    </Card>
  );
}
