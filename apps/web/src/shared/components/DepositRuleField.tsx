import { Group, NumberInput, Select, Stack, Text } from '@mantine/core';
import { fractionDigits, type TDepositRule } from '@tourdesk/contracts';
import { useState, type ComponentProps } from 'react';

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
          <ScaledInput label={labels.percentValue} min={0.01} max={99.99} decimalScale={2} suffix=" %" w={160} scale={100} stored={value.value} onStored={(n) => onChange({ ...value, value: n })} error={error} />
        )}
        {value?.kind === 'amount' && (
          <ScaledInput
            label={labels.amountValue}
            min={0}
            decimalScale={digits}
            leftSection={<Text size="xs">{currency}</Text>}
            leftSectionWidth={44}
            w={180}
            scale={10 ** digits}
            stored={value.value}
            onStored={(n) => onChange({ ...value, value: n })}
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
            <ScaledInput label={labels.days} min={1} max={365} decimalScale={0} w={160} scale={1} stored={due} onStored={(n) => onChange({ ...value, balance_due_days: n })} />
          )}
        </Group>
      )}
    </Stack>
  );
}

/**
 * A number typed as shown (12.5 %, 25.00 CHF) and kept scaled to an integer (1250 basis points,
 * 2500 minor units). What is typed is kept as typed while it is being written ("12."), and an
 * emptied field keeps 0 (refused on save: a rule needs its number).
 */
function ScaledInput({ scale, stored, onStored, ...props }: Omit<ComponentProps<typeof NumberInput>, 'value' | 'onChange'> & { scale: number; stored: number; onStored: (n: number) => void }) {
  const [typed, setTyped] = useState<string | number>(stored === 0 ? '' : stored / scale);
  const [last, setLast] = useState(stored);
  // Changed from outside (another kind chosen, the form reset): shown afresh.
  if (stored !== last) {
    setLast(stored);
    if (typeof typed !== 'number' || Math.round(typed * scale) !== stored) setTyped(stored === 0 ? '' : stored / scale);
  }
  return (
    <NumberInput
      {...props}
      value={typed}
      onChange={(raw) => {
        const v = typeof raw === 'bigint' ? Number(raw) : raw;
        setTyped(v);
        const n = typeof v === 'number' ? Math.round(v * scale) : v === '' ? 0 : null;
        if (n !== null && n !== stored) {
          setLast(n);
          onStored(n);
        }
      }}
    />
  );
}
