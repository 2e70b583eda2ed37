import { Badge, Group, NumberInput, Select, Stack, Textarea } from '@mantine/core';
import { PAYMENT_COLLECTORS, PARTNER_PRICING, percentToBp, type TPartnershipStatus } from '@tourdesk/contracts';
import { DateField } from '../../shared/components/DateField';
import { usePartnersT } from './texts';

export const PARTNERS_PATH = '/sales/partners';
export const partnerPath = (id: string) => `${PARTNERS_PATH}/${id}`;

export const STATUS_COLOR: Record<TPartnershipStatus, string> = { Invited: 'blue', Active: 'green', Declined: 'gray', Suspended: 'orange', Ended: 'gray' };
export function StatusBadge({ status }: { status: TPartnershipStatus }) {
  const t = usePartnersT();
  return (
    <Badge variant="light" color={STATUS_COLOR[status]}>
      {t(`status.${status}`)}
    </Badge>
  );
}

/** 1500 basis points → "15 %". */
export { formatBp as percent } from '@tourdesk/contracts';

/** The contract's terms as the form edits them (commission in percent, as people write it). */
export interface ContractForm {
  pricing: 'commission' | 'net';
  commission_percent: number;
  payment_collector: 'reseller' | 'supplier';
  valid_from: string;
  valid_to: string;
  notes: string;
}
export const EMPTY_CONTRACT: ContractForm = { pricing: 'commission', commission_percent: 15, payment_collector: 'reseller', valid_from: '', valid_to: '', notes: '' };

export const contractBody = (c: ContractForm) => ({
  pricing: c.pricing,
  commission_bp: percentToBp(c.commission_percent),
  payment_collector: c.payment_collector,
  valid_from: c.valid_from || null,
  valid_to: c.valid_to || null,
  notes: c.notes,
});


/** The contract's fields; read-only for the reseller. */
export function ContractFields({ value, onChange, readOnly = false }: { value: ContractForm; onChange: (c: ContractForm) => void; readOnly?: boolean }) {
  const t = usePartnersT();
  const pricingOptions = PARTNER_PRICING.map((value) => ({ value, label: t(`pricing.${value}`) }));
  const collectorOptions = PAYMENT_COLLECTORS.map((value) => ({ value, label: t(`collector.${value}`) }));
  const set = <K extends keyof ContractForm>(key: K, v: ContractForm[K]) => onChange({ ...value, [key]: v });
  return (
    <Stack gap="sm">
      <Group grow align="flex-start" wrap="wrap">
        <Select label={t('pricing')} data={pricingOptions} value={value.pricing} onChange={(v) => v && set('pricing', v as ContractForm['pricing'])} allowDeselect={false} readOnly={readOnly} miw={220} />
        {value.pricing === 'commission' && (
          <NumberInput
            label={t('commissionLabel')}
            description={t('commissionHint')}
            suffix=" %"
            min={0}
            max={100}
            decimalScale={2}
            value={value.commission_percent}
            onChange={(v) => set('commission_percent', typeof v === 'number' ? v : Number(v) || 0)}
            readOnly={readOnly}
            miw={160}
          />
        )}
      </Group>
      <Select label={t('payment')} description={t('paymentHint')} data={collectorOptions} value={value.payment_collector} onChange={(v) => v && set('payment_collector', v as ContractForm['payment_collector'])} allowDeselect={false} readOnly={readOnly} />
      <Group grow align="flex-start" wrap="wrap">
        <DateField label={t('validFrom')} value={value.valid_from} onChange={(v) => set('valid_from', v)} readOnly={readOnly} miw={180} />
        <DateField label={t('validTo')} value={value.valid_to} onChange={(v) => set('valid_to', v)} readOnly={readOnly} miw={180} />
      </Group>
      <Textarea label={t('notes')} autosize minRows={2} value={value.notes} onChange={(e) => set('notes', e.currentTarget.value)} readOnly={readOnly} maxLength={5000} />
    </Stack>
  );
}
