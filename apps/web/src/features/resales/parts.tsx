import { Badge, Group, Paper, SimpleGrid, Tabs, Text, Title } from '@mantine/core';
import type { TResale, TSettlement } from '@tourdesk/contracts';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { formatMoney } from '../../shared/lib/money';
import { useResalesT } from './texts';

export const RESALES_PATH = '/resales/overview';
export const SETTLEMENTS_PATH = '/resales/settlements';
export const resalePath = (orderId: string) => `${RESALES_PATH}/${orderId}`;
export const settlementPath = (id: string) => `${SETTLEMENTS_PATH}/${id}`;

export const DATE_RANGE_LABELS: Record<string, string> = { all: 'All time', '7 days': 'Last 7 days', '30 days': 'Last 30 days', '2 months': 'Last 2 months' };
export const LINE_STATUS_COLOR: Record<TResale['status'], string> = { Created: 'yellow', Confirmed: 'green', Canceled: 'gray' };
export const SIDE_LABEL = { supplier: 'Sold by partner', reseller: 'Sold by us' } as const;

/** The section's two tabs: the resold lines, and the statements that settle them. */
export function ResalesHeader({ tab, actions }: { tab: 'resales' | 'settlements'; actions?: ReactNode }) {
  const t = useResalesT();
  const navigate = useNavigate();
  return (
    <>
      <Group justify="space-between">
        <Title order={2}>{t('title')}</Title>
        {actions}
      </Group>
      <Tabs value={tab} onChange={(v) => v && navigate(v === 'settlements' ? SETTLEMENTS_PATH : RESALES_PATH)}>
        <Tabs.List>
          <Tabs.Tab value="resales">{t('tab.resales')}</Tabs.Tab>
          <Tabs.Tab value="settlements">{t('tab.settlements')}</Tabs.Tab>
        </Tabs.List>
      </Tabs>
    </>
  );
}

export function Figure({ label, value, hint, testId }: { label: string; value: string; hint?: string; testId?: string }) {
  return (
    <Paper withBorder p="sm" radius="md" data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="lg" fw={700}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Paper>
  );
}

export function Figures({ children }: { children: ReactNode }) {
  return <SimpleGrid cols={{ base: 2, sm: 4 }}>{children}</SimpleGrid>;
}

/** Who pays whom under a statement, in words (`t`: the resales' texts, in the user's language). */
export function owedText(s: Pick<TSettlement, 'reseller_owes' | 'currency' | 'supplier' | 'reseller'>, t: ReturnType<typeof useResalesT>) {
  const amount = formatMoney(Math.abs(s.reseller_owes), s.currency);
  if (s.reseller_owes > 0) return t('settlement.owes', { debtor: s.reseller.name, creditor: s.supplier.name, amount });
  if (s.reseller_owes < 0) return t('settlement.owes', { debtor: s.supplier.name, creditor: s.reseller.name, amount });
  return t('settlement.nothingOwed');
}

export function SettlementStatus({ status }: { status: TSettlement['status'] }) {
  const t = useResalesT();
  return (
    <Badge color={status === 'Settled' ? 'green' : 'blue'} variant="light" size="sm" data-testid="settlement-status">
      {t(`settlement.status.${status}`)}
    </Badge>
  );
}

/** "2 × Adult, 1 × Child" */
export const itemsText = (items: TResale['items']) => items.map((i) => `${i.quantity} × ${i.label}`).join(', ');
