import { useT } from '../../i18n';
import type { Question } from '../../lib/checkout';

/** One of the offers' booking questions: yes/no and short choices as radios, longer choices as a list, else a field. */
export function QuestionField({ q, value, error, onChange }: { q: Question; value: string; error?: string; onChange: (v: string) => void }) {
  const t = useT();
  // The answers as the page's language reads them (the value sent stays the stored answer).
  const labels = (q as { option_labels?: string[] }).option_labels;
  const id = `td-q-${q.id}`;
  const errorId = `${id}-error`;
  const invalid = error ? true : undefined;
  const described = error ? errorId : undefined;
  const label = (
    <>
      {q.question}{' '}
      {q.required ? (
        <span className="td-req" aria-hidden="true">
          *
        </span>
      ) : (
        <span className="td-muted">{t('optional')}</span>
      )}
    </>
  );
  const err = error ? (
    <span className="td-field-error" id={errorId}>
      {error}
    </span>
  ) : null;

  if (q.answer_type === 'yes_no' || (q.answer_type === 'choice' && q.options.length > 0 && q.options.length <= 4)) {
    const options = q.answer_type === 'yes_no' ? [{ value: 'yes', label: t('yes') }, { value: 'no', label: t('no') }] : q.options.map((o, i) => ({ value: o, label: labels?.[i] ?? o }));
    return (
      <fieldset className="td-field td-subfieldset" aria-describedby={described}>
        <legend>{label}</legend>
        <div className="td-inline-choices">
          {options.map((o, i) => (
            <label key={o.value} className="td-choice">
              <input
                type="radio"
                name={id}
                value={o.value}
                checked={value === o.value}
                required={q.required}
                aria-invalid={i === 0 ? invalid : undefined}
                onChange={() => onChange(o.value)}
              />
              <span>{o.label}</span>
            </label>
          ))}
        </div>
        {err}
      </fieldset>
    );
  }
  return (
    <div className="td-field">
      <label htmlFor={id}>{label}</label>
      {q.answer_type === 'choice' ? (
        <select id={id} value={value} required={q.required} aria-invalid={invalid} aria-describedby={described} onChange={(e) => onChange(e.currentTarget.value)}>
          <option value="">{t('chooseOption')}</option>
          {q.options.map((o, i) => (
            <option key={o} value={o}>
              {labels?.[i] ?? o}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          type={q.answer_type === 'number' ? 'number' : 'text'}
          inputMode={q.answer_type === 'number' ? 'decimal' : undefined}
          value={value}
          required={q.required}
          maxLength={1000}
          aria-invalid={invalid}
          aria-describedby={described}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      )}
      {err}
    </div>
  );
}
