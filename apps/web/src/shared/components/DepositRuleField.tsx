import { Group, NumberInput, Select, Stack, Text } from '@mantine/core';
import { fractionDigits, type TDepositRule } from '@tourdesk/contracts';

/** What the field says, from the catalog of the feature that shows it (the offer editor, a store's settings). */
export interface DepositLabels {
  title: string;
  hint: string;
  /** The choice without a deposit: "the store's rule" for an offer, "none" for a store. */
  none: string;
  percent: string;
  amount: string;
  percentValue: string;
  amountValue: string;
  restDue: string;
  onSite: string;
  daysBefore: string;
  days: string;
}

/**
 * A deposit rule (issue 32; ZDepositRule of the contracts): none, a percentage (typed in %, kept in
 * basis points) or a fixed amount per booking (typed in major units, kept in minor units), with the
 * rest due on site or N days before the departure.
 */
export function DepositRuleField({ value, onChange, currency, labels, error }: { value: TDepositRule | null; onChange: (v: TDepositRule | null) => void; currency: string; labels: DepositLabels; error?: string }) {
  const digits = fractionDigits(currency);
  const kind = value?.kind ?? 'none';
  const due = value?.balance_due_days ?? null;
  return (
    <Stack gap="xs" data-testid="deposit-rule">
      <Text size="sm" c="dimmed">
        {labels.hint}
      </Text>
      <Group align="flex-start" gap="md">
        <Select
          label={labels.title}
          allowDeselect={false}
          w={260}
          value={kind}
          data={[
            { value: 'none', label: labels.none },
            { value: 'percent', label: labels.percent },
            { value: 'amount', label: labels.amount },
          ]}
          onChange={(k) => {
            if (k === 'percent') onChange({ kind: 'percent', value: 2000, balance_due_days: due });
            else if (k === 'amount') onChange({ kind: 'amount', value: 10 ** digits * 10, balance_due_days: due });
            else onChange(null);
          }}
        />
        {value?.kind === 'percent' && (
          <NumberInput
            label={labels.percentValue}
            min={0.01}
            max={99.99}
            decimalScale={2}
            suffix=" %"
            w={160}
            // Emptied, the field shows nothing (0 is refused on save: "A deposit is more than nothing").
            value={value.value === 0 ? '' : value.value / 100}
            onChange={(v) => onChange({ ...value, value: typeof v === 'number' ? Math.round(v * 100) : 0 })}
            error={error}
          />
        )}
        {value?.kind === 'amount' && (
          <NumberInput
            label={labels.amountValue}
            min={0}
            decimalScale={digits}
            leftSection={<Text size="xs">{currency}</Text>}
            leftSectionWidth={44}
            w={180}
            value={value.value === 0 ? '' : value.value / 10 ** digits}
            onChange={(v) => onChange({ ...value, value: typeof v === 'number' ? Math.round(v * 10 ** digits) : 0 })}
            error={error}
          />
        )}
      </Group>
      {value && (
        <Group align="flex-start" gap="md">
          <Select
            label={labels.restDue}
            allowDeselect={false}
            w={260}
            value={due === null ? 'on_site' : 'before'}
            data={[
              { value: 'on_site', label: labels.onSite },
              { value: 'before', label: labels.daysBefore },
            ]}
            onChange={(v) => onChange({ ...value, balance_due_days: v === 'before' ? (due ?? 7) : null })}
          />
          {due !== null && (
            <NumberInput label={labels.days} min={1} max={365} w={160} value={due === 0 ? '' : due} onChange={(v) => onChange({ ...value, balance_due_days: typeof v === 'number' ? Math.round(v) : 0 })} />
          )}
        </Group>
      )}
    </Stack>
  );
}
