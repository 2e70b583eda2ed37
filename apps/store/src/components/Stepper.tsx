import { t } from '../texts';

/** A quantity: − and + buttons around a number field, with a visible label. */
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
  const set = (n: number) => onChange(Math.max(min, Math.min(max, Number.isFinite(n) ? Math.trunc(n) : min)));
  return (
    <div class="td-stepper">
      <button type="button" class="td-stepper-btn" aria-label={t.fewer(label)} aria-controls={id} disabled={value <= min} onClick={() => set(value - 1)}>
        −
      </button>
      <input
        id={id}
        class="td-stepper-input"
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        value={value}
        onInput={(e) => {
          const input = e.currentTarget as HTMLInputElement;
          if (input.value === '') return;
          const n = Math.max(min, Math.min(canAdd ? max : value, Math.trunc(Number(input.value)) || 0));
          if (String(n) !== input.value) input.value = String(n);
          onChange(n);
        }}
        onBlur={(e) => {
          (e.currentTarget as HTMLInputElement).value = String(value);
        }}
      />
      <button type="button" class="td-stepper-btn" aria-label={t.more(label)} aria-controls={id} disabled={value >= max || !canAdd} onClick={() => set(value + 1)}>
        +
      </button>
    </div>
  );
}
