import { useEffect, useState } from 'react';
import { TimerIcon } from './Icons';
import { formatCountdown, minutesLeft, msLeft } from '../lib/countdown';
import { useT } from '../i18n';

/**
 * Time left on a hold, ticking every second on screen; screen readers hear it once a minute and
 * when it runs out (a live region that changes every second would talk over everything).
 */
export function Countdown({ expiresAt, onExpire }: { expiresAt: string; onExpire?: () => void }) {
  const t = useT();
  const [now, setNow] = useState(() => Date.now());
  const left = msLeft(expiresAt, now);
  useEffect(() => {
    if (left <= 0) {
      onExpire?.();
      return;
    }
    const timer = setTimeout(() => setNow(Date.now()), Math.min(1000, left));
    return () => clearTimeout(timer);
  }, [now, expiresAt]); // eslint-disable-line react-hooks/exhaustive-deps
  const expired = left <= 0;
  return (
    <div className={`td-countdown${expired ? ' td-countdown--expired' : left < 120_000 ? ' td-countdown--soon' : ''}`}>
      {!expired && (
        <span aria-hidden="true" className="td-countdown-visible">
          <TimerIcon /> {t('heldFor')} <strong className="td-countdown-time" data-testid="countdown">{formatCountdown(left)}</strong>
        </span>
      )}
      <span className={expired ? '' : 'td-sr-only'} aria-live="polite" aria-atomic="true">
        {expired ? t('expiredLive') : t('heldForLive', { minutes: minutesLeft(left) })}
      </span>
    </div>
  );
}
