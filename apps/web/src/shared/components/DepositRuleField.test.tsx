import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TDepositRule } from '@tourdesk/contracts';
import { useState } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderWithApp } from '../../test/render';
import { DepositRuleField, type DepositLabels } from './DepositRuleField';

/**
 * The deposit rule as typed: a percentage in % kept in basis points, a fixed amount in the
 * currency's major units kept in minor units (with the currency's own decimals), the rest on site
 * or N days before; "none" clears the rule.
 */
const LABELS: DepositLabels = {
  title: 'Deposit when paid online',
  hint: 'Hint',
  none: 'The store’s rule',
  percent: 'A percentage',
  amount: 'A fixed amount per booking',
  percentValue: 'Deposit',
  amountValue: 'Deposit per booking',
  restDue: 'The rest is due',
  onSite: 'On site',
  daysBefore: 'Days before the departure',
  days: 'Days before',
};

let last: TDepositRule | null | undefined;
function Field({ currency, initial = null }: { currency: string; initial?: TDepositRule | null }) {
  const [value, setValue] = useState<TDepositRule | null>(initial);
  return (
    <DepositRuleField
      value={value}
      currency={currency}
      labels={LABELS}
      onChange={(v) => {
        last = v;
        setValue(v);
      }}
    />
  );
}
const select = (label: string) => screen.getAllByLabelText(label).find((e) => e.tagName === 'INPUT')!;
const choose = async (label: string, option: string) => {
  await userEvent.click(select(label));
  await userEvent.click(await screen.findByRole('option', { name: option, hidden: true }));
};

beforeAll(() => {
  // Mantine's combobox scrolls its chosen option into view, which jsdom does not do.
  Element.prototype.scrollIntoView ??= () => undefined;
});

describe('DepositRuleField', () => {
  it('keeps a percentage in basis points, the rest days before the departure, and clears the rule', async () => {
    renderWithApp(<Field currency="CHF" />);
    await choose('Deposit when paid online', 'A percentage');
    expect(last).toEqual({ kind: 'percent', value: 2000, balance_due_days: null });
    await userEvent.clear(screen.getByLabelText('Deposit'));
    await userEvent.type(screen.getByLabelText('Deposit'), '12.5');
    expect(last).toEqual({ kind: 'percent', value: 1250, balance_due_days: null });
    await choose('The rest is due', 'Days before the departure');
    await userEvent.clear(screen.getByLabelText('Days before'));
    await userEvent.type(screen.getByLabelText('Days before'), '10');
    expect(last).toEqual({ kind: 'percent', value: 1250, balance_due_days: 10 });
    await choose('Deposit when paid online', 'The store’s rule');
    expect(last).toBeNull();
    expect(screen.queryByLabelText('The rest is due')).toBeNull();
  });

  it('keeps a fixed amount in minor units, with the currency’s decimals', async () => {
    renderWithApp(<Field currency="JPY" initial={{ kind: 'amount', value: 1000, balance_due_days: null }} />);
    expect(screen.getByLabelText('Deposit per booking')).toHaveValue('1000');
    await userEvent.clear(screen.getByLabelText('Deposit per booking'));
    await userEvent.type(screen.getByLabelText('Deposit per booking'), '2500');
    expect(last).toEqual({ kind: 'amount', value: 2500, balance_due_days: null });
  });
});
