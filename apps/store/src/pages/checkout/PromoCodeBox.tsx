import type { TPromoPreview } from '@tourdesk/contracts';
import { formatBp } from '@tourdesk/contracts/percent';
import { useState } from 'react';
import { useStore } from '../../context';
import { ApiError } from '../../lib/api';
import type { Line } from '../../lib/checkout';
import { formatMoney } from '../../lib/money';
import { errorText, useT } from '../../i18n';

/** A VAT rate in basis points in the page's locale: 810 → "8.1 %". */
const rateText = (bp: number, locale: string) => formatBp(bp, locale, 'locale');

/**
 * The cart's promo code: tried on the lines shown (the server's rule, nothing taken until the order),
 * then its own "Discount (CODE)" row with its VAT per rate; a refusal says why, in the page's language.
 */
export function PromoCodeBox({ lines, applied, onApplied }: { lines: Line[]; applied: TPromoPreview | null; onApplied: (p: TPromoPreview | null) => void }) {
  const t = useT();
  const { api } = useStore();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (applied) {
    return (
      <div className="td-promo" data-testid="promo-applied">
        <p className="td-total">
          <span>{t('discountRow', { code: applied.discount.code })}</span> <strong data-testid="cart-discount">−{formatMoney(applied.discount.amount, applied.currency, t.locale)}</strong>
        </p>
        {applied.discount.taxes.map((x) => (
          <p key={x.vat_rate_bp} className="td-muted">
            {t('discountVat', { rate: rateText(x.vat_rate_bp, t.locale), tax: formatMoney(x.tax, applied.currency, t.locale) })}
          </p>
        ))}
        <button type="button" className="td-btn td-btn--secondary td-btn--small" onClick={() => onApplied(null)}>
          {t('removePromo')}
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
          onApplied(await api.tryPromo(code.trim(), lines.map((l) => l.id)));
          setError(null);
          setCode('');
        } catch (err) {
          setError(err instanceof ApiError ? errorText(t, err) : t('genericError'));
        } finally {
          setBusy(false);
        }
      }}
    >
      <label htmlFor="td-promo-code">
        {t('promoCode')}
      </label>
      <div className="td-promo-row">
        <input id="td-promo-code" value={code} onChange={(e) => setCode(e.currentTarget.value)} autoComplete="off" aria-invalid={error ? true : undefined} aria-describedby={error ? 'td-promo-error' : undefined} />
        <button type="submit" className="td-btn td-btn--secondary" disabled={busy}>
          {t('applyPromo')}
        </button>
      </div>
      {error && (
        <p id="td-promo-error" className="td-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
