import type { ToastKind } from '../context';
import { useT } from '../i18n';

export interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
}

/** Messages for the customer: errors are alerts, the rest polite announcements. */
export function Toasts({ toasts, dismiss }: { toasts: Toast[]; dismiss: (id: number) => void }) {
  const t = useT();
  const list = (kind: 'error' | 'other') =>
    toasts
      .filter((x) => (kind === 'error' ? x.kind === 'error' : x.kind !== 'error'))
      .map((x) => (
        <div key={x.id} className={`td-toast td-toast--${x.kind}`}>
          <span>{x.text}</span>
          <button type="button" className="td-toast-close" onClick={() => dismiss(x.id)} aria-label={t('dismiss')}>
            ×
          </button>
        </div>
      ));
  return (
    <div className="td-toasts">
      <div role="alert" aria-live="assertive">
        {list('error')}
      </div>
      <div role="status" aria-live="polite">
        {list('other')}
      </div>
    </div>
  );
}
