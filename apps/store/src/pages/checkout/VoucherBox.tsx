import type { TVoucherPreview } from '@tourdesk/contracts';
import { useState } from 'react';
import { useStore } from '../../context';
import { ApiError } from '../../lib/api';
import type { Line } from '../../lib/checkout';
import { formatMoney, toMajorText, toMinorUnits } from '../../lib/money';
import { errorText, useT } from '../../i18n';

/**
 * The cart's gift voucher: tried on the lines shown (after the promo code; nothing taken until the
 * order), its balance and what it pays shown — as much as the order takes, or less when the customer
 * keeps some for later (`covers`, sent as the order's `voucher_amount`); it pays first, the rest on
 * site or by card.
 */
export function VoucherBox({ lines, promoCode, applied, onApplied }: { lines: Line[]; promoCode: string | null; applied: TVoucherPreview | null; onApplied: (p: TVoucherPreview | null) => void }) {
  const t = useT();
  const { api } = useStore();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // What the customer types as the amount to spend, until it is taken (on leaving the field).
  const [spend, setSpend] = useState<string | null>(null);
  if (applied) {
    const most = Math.min(applied.balance, applied.due);
    const take = () => {
      if (spend === null) return;
      const typed = toMinorUnits(spend, applied.currency);
      onApplied({ ...applied, covers: typed === null ? applied.covers : Math.max(1, Math.min(most, typed)) });
      setSpend(null);
    };
    return (
      <div className="td-promo" data-testid="voucher-applied">
        <p className="td-total">
          <span>{t('voucherRow', { code: applied.code })}</span> <strong data-testid="cart-voucher">−{formatMoney(applied.covers, applied.currency, t.locale)}</strong>
        </p>
        <p className="td-muted">{t('voucherBalance', { balance: formatMoney(applied.balance, applied.currency, t.locale) })}</p>
        {most > 1 && (
          <div className="td-field">
            <label htmlFor="td-voucher-spend">{t('voucherSpend', { currency: applied.currency })}</label>
            <input
              id="td-voucher-spend"
              inputMode="decimal"
              value={spend ?? toMajorText(applied.covers, applied.currency)}
              onChange={(e) => setSpend(e.currentTarget.value)}
              onBlur={take}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  take();
                }
              }}
            />
          </div>
        )}
        <button type="button" className="td-btn td-btn--secondary td-btn--small" onClick={() => onApplied(null)}>
          {t('removeVoucher')}
        </button>
      </div>
    );
  }
  return (
    <form
      className="td-promo td-field"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        if (!code.trim()) return;
        setBusy(true);
        try {
          onApplied(await api.tryVoucher(code.trim(), lines.map((l) => l.id), promoCode));
          setError(null);
          setCode('');
        } catch (err) {
          setError(err instanceof ApiError ? errorText(t, err) : t('genericError'));
        } finally {
          setBusy(false);
        }
      }}
    >
      <label htmlFor="td-voucher-code">{t('voucherCode')}</label>
      <div className="td-promo-row">
        <input id="td-voucher-code" value={code} onChange={(e) => setCode(e.currentTarget.value)} autoComplete="off" aria-invalid={error ? true : undefined} aria-describedby={error ? 'td-voucher-error' : undefined} />
        <button type="submit" className="td-btn td-btn--secondary" disabled={busy}>
          {t('applyVoucher')}
        </button>
      </div>
      {error && (
        <p id="td-voucher-error" className="td-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
