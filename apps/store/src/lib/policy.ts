import type { T } from '../i18n';

export interface RefundRule {
  hours_before: number;
  refund_percent: number;
}

/**
 * A cancellation policy in words, one sentence per case, the way the server applies it: the rule
 * with the most hours before the start that still lie ahead decides; earlier than every rule, no
 * refund.
 */
export function policyLines(t: T, rules: RefundRule[]): string[] {
  const refund = (percent: number) => (percent >= 100 ? t('refundFull') : percent <= 0 ? t('refundNone') : t('refundPercent', { percent }));
  const time = (hours: number) => (hours >= 48 && hours % 24 === 0 ? t('policyDays', { n: hours / 24 }) : t('policyHours', { n: hours }));
  const atLeast = (percent: number, hours: number) => t('refundAtLeast', { refund: refund(percent), time: time(hours) });
  const later = (percent: number, hours: number) => t('refundLater', { refund: refund(percent), time: time(hours) });
  const sorted = [...rules].sort((a, b) => b.hours_before - a.hours_before);
  const lines: string[] = [];
  sorted.forEach((rule, i) => {
    const previous = sorted[i - 1];
    if (rule.hours_before > 0) lines.push(atLeast(rule.refund_percent, rule.hours_before));
    else if (previous) lines.push(later(rule.refund_percent, previous.hours_before));
    else lines.push(t('refundAnytime', { refund: refund(rule.refund_percent) }));
  });
  const last = sorted[sorted.length - 1];
  if (last && last.hours_before > 0) lines.push(later(0, last.hours_before));
  return lines;
}
