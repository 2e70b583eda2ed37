/** Milliseconds left until `expiresAt` (never below 0). */
export const msLeft = (expiresAt: string, now: number = Date.now()) => Math.max(0, new Date(expiresAt).getTime() - now);

/** 581000 → "9:41"; an hour or more "1:02:05"; 0 → "0:00". Whole seconds, rounded up, so 0:00 means run out. */
export function formatCountdown(ms: number) {
  const total = Math.ceil(Math.max(0, ms) / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** Whole minutes left, rounded up: what the screen reader hears (once a minute, not every second). */
export const minutesLeft = (ms: number) => Math.ceil(Math.max(0, ms) / 60000);
