import { useEffect, useState } from 'react';
import type { TOnlineAmount } from '@tourdesk/contracts';
import { useStore } from '../../context';
import { useT } from '../../i18n';
import type { Line } from '../../lib/checkout';
import { formatLongDate } from '../../lib/dates';
import { formatMoney } from '../../lib/money';

/**
 * Paying online with a deposit (issue 32): what is charged now and the rest, due on site or by a
 * date — the server's onlineAmount() for the lines, the promo code and the gift voucher (which pays
 * first: the card pays what it leaves, or its deposit). Nothing is shown when the whole total is paid now (or the server cannot say: the payment page shows what is charged).
 */
export function OnlineAmount({ lines, promoCode, voucherCode, voucherAmount }: { lines: Line[]; promoCode: string | null; voucherCode: string | null; voucherAmount: number | null }) {
  const t = useT();
  const { api } = useStore();
  // The answer for the lines and code it was asked for: an older one is never shown for newer lines.
  const [answer, setAnswer] = useState<{ key: string; amount: TOnlineAmount | null } | null>(null);
  const ids = lines.map((l) => l.id).join();
  const key = `${ids}|${promoCode ?? ''}|${voucherCode ?? ''}|${voucherAmount ?? ''}`;
  useEffect(() => {
    let live = true;
    if (!ids) return;
    api.onlineAmount(ids.split(','), promoCode, voucherCode, voucherAmount).then(
      (a) => live && setAnswer({ key, amount: a }),
      () => live && setAnswer({ key, amount: null }),
    );
    return () => {
      live = false;
    };
  }, [api, ids, key, promoCode, voucherCode, voucherAmount]);
  const amount = answer?.key === key ? answer.amount : null;
  if (!amount || amount.rest <= 0) return null;
  const money = (n: number) => formatMoney(n, amount.currency, t.locale);
  return (
    <dl className="td-dl td-deposit" data-testid="online-amount" aria-live="polite">
      <dt>{t('payNowDeposit')}</dt>
      <dd data-testid="pay-now">{money(amount.pay_now)}</dd>
      <dt>{amount.due_on ? t('restDueBy', { date: formatLongDate(t, amount.due_on) }) : t('restDueOnSite')}</dt>
      <dd data-testid="rest-due">{money(amount.rest)}</dd>
    </dl>
  );
}
