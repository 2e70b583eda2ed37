import { t } from '../texts';

export interface RefundRule {
  hours_before: number;
  refund_percent: number;
}

/**
 * A cancellation policy in words, one sentence per case, the way the server applies it: the rule
 * with the most hours before the start that still lie ahead decides; earlier than every rule, no
 * refund.
 */
export function policyLines(rules: RefundRule[]): string[] {
  const sorted = [...rules].sort((a, b) => b.hours_before - a.hours_before);
  const lines: string[] = [];
  sorted.forEach((rule, i) => {
    const previous = sorted[i - 1];
    if (rule.hours_before > 0) lines.push(t.refundAtLeast(rule.refund_percent, rule.hours_before));
    else if (previous) lines.push(t.refundLater(rule.refund_percent, previous.hours_before));
    else lines.push(t.refundAnytime(rule.refund_percent));
  });
  const last = sorted[sorted.length - 1];
  if (last && last.hours_before > 0) lines.push(t.refundLater(0, last.hours_before));
  return lines;
}
