import { useState } from 'react';
import { useT } from '../i18n';

/**
 * A quantity: − and + buttons around a number field, with a visible label. The field keeps what is
 * typed (an empty field while a new number is typed) and shows the quantity again when it loses
 * the focus; a number outside min…max is brought inside.
 */
export function Stepper({
  id,
  label,
  value,
  min = 0,
  max,
  canAdd = true,
  onChange,
}: {
  id: string;
  label: string;
  value: number;
  min?: number;
  max: number;
  canAdd?: boolean;
  onChange: (n: number) => void;
}) {
  const t = useT();
  const [typed, setTyped] = useState<string | null>(null);
  const set = (n: number) => onChange(Math.max(min, Math.min(max, Number.isFinite(n) ? Math.trunc(n) : min)));
  return (
    <div className="td-stepper">
      <button type="button" className="td-stepper-btn" aria-label={t('fewer', { label })} aria-controls={id} disabled={value <= min} onClick={() => set(value - 1)}>
        −
      </button>
      <input
        id={id}
        className="td-stepper-input"
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        value={typed ?? String(value)}
        onChange={(e) => {
          const text = e.currentTarget.value;
          if (text === '') return setTyped('');
          const n = Math.max(min, Math.min(canAdd ? max : value, Math.trunc(Number(text)) || 0));
          setTyped(String(n));
          onChange(n);
        }}
        onBlur={() => setTyped(null)}
      />
      <button type="button" className="td-stepper-btn" aria-label={t('more', { label })} aria-controls={id} disabled={value >= max || !canAdd} onClick={() => set(value + 1)}>
        +
      </button>
    </div>
  );
}
