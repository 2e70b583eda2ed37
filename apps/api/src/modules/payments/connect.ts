import type Stripe from 'stripe';
import type { TPaymentProvider } from '@tourdesk/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { paymentAccount } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import { tenantOrigin } from '../../lib/host';
import * as q from './queries';
import { missingStripeSettings } from './stripe';

/**
 * Stripe Connect: an Owner connects the organisation's own Stripe account (Standard, so it is
 * theirs: they see their payments and payouts in their own Stripe dashboard) through Stripe's
 * hosted onboarding; the web store then charges on it directly, the platform taking its fee.
 */

type PaymentAccountRow = typeof paymentAccount.$inferSelect;

/** Writes what Stripe says of an account (from the API or an account.updated event). */
export function accountState(a: Stripe.Account) {
  return {
    details_submitted: Boolean(a.details_submitted),
    charges_enabled: Boolean(a.charges_enabled),
    payouts_enabled: Boolean(a.payouts_enabled),
    requirements: a.requirements?.currently_due ?? [],
    updated_at: new Date(),
  };
}


function present(config: Config, row: PaymentAccountRow | undefined, fee: number): TPaymentProvider {
  return {
    provider: 'stripe',
    missing_settings: missingStripeSettings(config),
    connected: Boolean(row),
    account: row?.external_id ?? null,
    details_submitted: row?.details_submitted ?? false,
    charges_enabled: row?.charges_enabled ?? false,
    payouts_enabled: row?.payouts_enabled ?? false,
    requirements: row?.requirements ?? [],
    application_fee_bp: fee,
  };
}

/** The state, asked afresh from Stripe when an account is connected (the "OAuth retrieve" of the spec). */
export async function providerState(ctx: TenantCtx, config: Config, stripe: Stripe | null): Promise<TPaymentProvider> {
  let row = await q.connectedAccount(ctx);
  if (row && stripe) {
    const a = await stripe.accounts.retrieve(row.external_id);
    row = await q.updateConnectedAccount(ctx, accountState(a));
  }
  return present(config, row, await q.applicationFeeBp(ctx));
}

/**
 * Starts (or resumes) Stripe's onboarding: makes the organisation's account the first time, then
 * an account link to Stripe's hosted onboarding, which comes back to the payment providers page.
 */
export async function startOnboarding(ctx: TenantCtx, config: Config, stripe: Stripe | null) {
  if (!stripe) throw new AppError('invalid', `Online payments are not set up on this platform: ${missingStripeSettings(config).join(', ')} missing.`);
  const org = await q.organisationOf(ctx);
  let row = await q.connectedAccount(ctx);
  if (!row) {
    const a = await stripe.accounts.create(
      { type: 'standard', email: org!.email || undefined, business_profile: { name: org!.name }, metadata: { tourdesk_account: ctx.accountId } },
      { idempotencyKey: `connect-${ctx.accountId}` },
    );
    row = await q.insertConnectedAccount(ctx, { external_id: a.id, ...accountState(a) });
    row ??= await q.connectedAccount(ctx);
  }
  const back = `${tenantOrigin(config, org!.subdomain)}/settings/payment-providers`;
  const link = await stripe.accountLinks.create({ account: row!.external_id, type: 'account_onboarding', refresh_url: `${back}?stripe=refresh`, return_url: `${back}?stripe=return` });
  return { url: link.url };
}

/** Forgets the organisation's Stripe account here (the account stays the organisation's at Stripe). */
export async function disconnect(ctx: TenantCtx) {
  const gone = await q.deleteConnectedAccount(ctx);
  if (gone.length === 0) throw new AppError('not_found', 'No Stripe account is connected.');
}

/** account.updated: the state Stripe now has, written to whichever organisation has that account. */
export async function onAccountUpdated(db: Db, a: Stripe.Account) {
  await q.updateAccountByExternalId(db, a.id, accountState(a));
}

/**
 * account.application.deauthorized: the organisation removed the platform from its Stripe account
 * (in Stripe's dashboard); it is no longer connected here, and its stores stop offering online payment.
 */
export async function onDeauthorized(db: Db, stripeAccount: string) {
  await q.deleteAccountByExternalId(db, stripeAccount);
}
