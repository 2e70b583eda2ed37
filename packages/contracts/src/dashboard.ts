import { z } from 'zod';

/**
 * The dashboard (GET /api/dashboard/): the day at a glance, each part only for a role that may see
 * what it counts (null otherwise) — today's departures and the nearly full ones ahead for those who
 * may check in (View experiences), revenue and money due for those who handle orders (Manage orders),
 * and the onboarding checklist for those who run the account (Manage account).
 */
export const ZDashboardDeparture = z.object({
  slot: z.uuid(),
  experience: z.uuid(),
  experience_title: z.string(),
  starts_at: z.iso.datetime(),
  local_date: z.string(),
  local_time: z.string(),
  capacity: z.number().int(),
  booked: z.number().int(),
  remaining: z.number().int(),
  /** Seats of the bookings checked in. */
  arrived: z.number().int(),
  status: z.enum(['available', 'limited', 'sold_out', 'closed']),
});
export type TDashboardDeparture = z.infer<typeof ZDashboardDeparture>;

export const ZDashboardRevenue = z.object({
  /** Orders sold (created) on each local day of the last 30, not cancelled: their totals as sold. */
  today: z.number().int(),
  last_7_days: z.number().int(),
  last_30_days: z.number().int(),
  days: z.array(z.object({ date: z.string(), revenue: z.number().int(), orders: z.number().int() })),
});
export type TDashboardRevenue = z.infer<typeof ZDashboardRevenue>;

export const ZDashboardMoneyDue = z.object({
  /** Orders not cancelled whose payment status is Not paid or Partially paid, and what they still owe. */
  unpaid_orders: z.number().int(),
  unpaid_amount: z.number().int(),
  /** Orders whose payment status is Refund due, and what is to be given back. */
  refunds_due: z.number().int(),
  refunds_amount: z.number().int(),
});

/**
 * Deposits' balances (issue 32): orders not cancelled that still owe money by a due date (paid by a
 * deposit online), their count and sum, and the next few by due date.
 */
export const ZDashboardBalancesDue = z.object({
  orders: z.number().int(),
  amount: z.number().int(),
  next: z.array(z.object({ order: z.uuid(), reference: z.string(), customer: z.string(), balance: z.number().int(), due_on: z.string(), payment_status: z.string() })),
});
export type TDashboardBalancesDue = z.infer<typeof ZDashboardBalancesDue>;

export const ONBOARDING_STEPS = ['offer', 'schedule', 'prices', 'payments', 'store', 'team'] as const;
export const ZOnboardingStep = z
  .object({
    key: z.enum(ONBOARDING_STEPS),
    title: z.string(),
    description: z.string(),
    done: z.boolean(),
    /** Where it is done in the back office. */
    path: z.string(),
  })
  .meta({ id: 'OnboardingStep' });
export type TOnboardingStep = z.infer<typeof ZOnboardingStep>;

/** The organisation's getting-started checklist, from its real state; dismissed by the organisation. */
export const ZOnboarding = z
  .object({
    id: z.literal('getting-started'),
    title: z.string(),
    dismissed: z.boolean(),
    done: z.number().int(),
    steps: z.array(ZOnboardingStep),
  })
  .meta({ id: 'Onboarding' });
export type TOnboarding = z.infer<typeof ZOnboarding>;
export const ZOnboardingPatch = z.object({ dismissed: z.boolean() });
export const ZOnboardingParams = z.object({ onboarding: z.literal('getting-started', { error: 'No onboarding with this id.' }) });

export const ZDashboard = z
  .object({
    date: z.string(),
    time_zone: z.string(),
    currency: z.string(),
    departures: z.array(ZDashboardDeparture).nullable(),
    nearly_full: z.array(ZDashboardDeparture).nullable(),
    revenue: ZDashboardRevenue.nullable(),
    money_due: ZDashboardMoneyDue.nullable(),
    balances_due: ZDashboardBalancesDue.nullable(),
    onboarding: ZOnboarding.nullable(),
  })
  .meta({ id: 'Dashboard' });
export type TDashboard = z.infer<typeof ZDashboard>;
