import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconInfoCircle } from '@tabler/icons-react';
import { todayIn } from '@tourdesk/contracts/local-date';
import dayjs from 'dayjs';
import { useState } from 'react';
import { errorMessages, fieldErrors } from '../../shared/api/errors';
import { DateField } from '../../shared/components/DateField';
import { useAppSelector } from '../../shared/hooks/store';
import { notifySuccess } from '../../shared/lib/toast';
import { useAccountingDownloadMutation, useAccountingSummaryQuery } from './api';
import { useAccountingT } from './texts';

/** The last month up to today, in the organisation's zone (YYYY-MM-DD). */
function lastMonth(zone: string) {
  const to = todayIn(zone);
  return { from: dayjs(to).subtract(1, 'month').format('YYYY-MM-DD'), to };
}

/**
 * /accounting/export: a period (the organisation's days) and its two downloads — the journal as CSV
 * and the invoices and credit notes as one ZIP of PDFs — with what the period holds.
 */
export default function AccountingExportPage() {
  const t = useAccountingT();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone) ?? 'UTC';
  const [period, setPeriod] = useState(() => lastMonth(zone));
  const complete = Boolean(period.from && period.to);
  const { data: summary, error, isFetching } = useAccountingSummaryQuery(period, { skip: !complete });
  const errors = fieldErrors(error);
  const [download, downloading] = useAccountingDownloadMutation();
  const usable = complete && !error && Boolean(summary);
  const rows = summary?.rows;
  const save = async (url: string, fallbackName: string) => {
    const res = await download({ url, params: period, fallbackName });
    if ('data' in res && res.data) notifySuccess(t('download.done', { name: res.data }));
  };
  const busy = (suffix: string) => downloading.isLoading && Boolean(downloading.originalArgs?.url.endsWith(suffix));

  return (
    <Stack gap="md" maw={760}>
      <div>
        <Title order={2}>{t('title')}</Title>
        <Text c="dimmed" size="sm">
          {t('intro', { zone })}
        </Text>
      </div>
      <Paper withBorder p="md">
        <Stack>
          <Group grow align="flex-start">
            <DateField label={t('from')} withAsterisk clearable={false} value={period.from} onChange={(v) => setPeriod({ ...period, from: v })} error={errors.from} />
            <DateField label={t('to')} withAsterisk clearable={false} value={period.to} onChange={(v) => setPeriod({ ...period, to: v })} error={errors.to} />
          </Group>
          {error && Object.keys(errors).length === 0 && (
            <Alert color="red" variant="light">
              {errorMessages(error).join(' ')}
            </Alert>
          )}
          <div aria-label={t('summary.label')} role="status" aria-busy={isFetching}>
            {summary && rows && !error && (
              <Stack gap={2}>
                <Text fw={500}>
                  {t('summary.rows', { count: Object.values(rows).reduce((s, n) => s + n, 0) })} · {t('summary.documents', { invoices: summary.invoices, creditNotes: summary.credit_notes })}
                </Text>
                <Text size="sm" c="dimmed">
                  {[
                    t('summary.sales', { count: rows.sale }),
                    t('summary.creditNotes', { count: rows.credit_note }),
                    t('summary.fees', { count: rows.cancellation_fee + rows.payment_fee }),
                    t('summary.payments', { count: rows.payment }),
                    t('summary.refunds', { count: rows.refund }),
                    t('summary.commissions', { count: rows.partner_commission }),
                    t('summary.vouchers', { count: rows.voucher_sale + rows.voucher_issued + rows.voucher_cancelled }),
                  ].join(' · ')}
                </Text>
              </Stack>
            )}
          </div>
          <Group>
            <Button leftSection={<IconDownload size={16} />} disabled={!usable} loading={busy('.csv')} onClick={() => void save('accounting/journal.csv', `journal-${period.from}-${period.to}.csv`)}>
              {t('download.journal')}
            </Button>
            <Button variant="default" leftSection={<IconDownload size={16} />} disabled={!usable} loading={busy('.zip')} onClick={() => void save('accounting/documents.zip', `documents-${period.from}-${period.to}.zip`)}>
              {t('download.documents')}
            </Button>
          </Group>
        </Stack>
      </Paper>
      <Alert variant="light" icon={<IconInfoCircle size={18} />} title={t('format.title')}>
        <Stack gap={4}>
          <Text size="sm">{t('format.body')}</Text>
          <Text size="sm">{t('format.documents')}</Text>
        </Stack>
      </Alert>
    </Stack>
  );
}
