import type Stripe from 'stripe';
import { formatAmount } from './stripe-objects';

/** The fake's hosted pages (onboarding, payment, customer portal, OAuth consent): small, real, accessible HTML. */

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Stripe (test fake)</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f6f9fc; color: #1a1f36; margin: 0; }
  main { max-width: 28rem; margin: 3rem auto; background: #fff; padding: 2rem; border-radius: 8px; box-shadow: 0 2px 8px rgba(0,0,0,.08); }
  h1 { font-size: 1.4rem; margin-top: 0; }
  label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
  input { width: 100%; box-sizing: border-box; padding: .6rem; font-size: 1rem; border: 1px solid #c1c9d2; border-radius: 4px; }
  button { margin-top: 1.25rem; width: 100%; padding: .75rem; font-size: 1rem; color: #fff; background: #635bff; border: 0; border-radius: 4px; cursor: pointer; }
  button.secondary { background: #fff; color: #635bff; border: 1px solid #635bff; }
  [role="alert"] { color: #b3093c; background: #fff0f3; padding: .6rem; border-radius: 4px; }
  .total { font-size: 2rem; font-weight: 700; margin: .25rem 0 1rem; }
  table { width: 100%; border-collapse: collapse; }
  td { padding: .25rem 0; } td:last-child { text-align: right; }
  .test { display: inline-block; background: #ffde92; color: #983705; font-size: .75rem; font-weight: 700; padding: .1rem .4rem; border-radius: 4px; }
</style>
</head>
<body>
<main>
<p><span class="test">TEST MODE</span></p>
${body}
</main>
</body>
</html>`;
}

export function messagePage(title: string, message: string, link?: { href: string; text: string }): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>${link ? `\n<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>` : ''}`);
}

export function onboardingPage(input: { account: Stripe.Account; returnUrl: string }): string {
  const { account } = input;
  const name = account.business_profile?.name ?? account.email ?? account.id;
  return layout(
    'Set up payments',
    `<h1>Set up payments for ${escapeHtml(name)}</h1>
<p>Stripe needs a few details about your business before it can pay out to you.</p>
<form method="post">
  <label for="business_name">Business name</label>
  <input id="business_name" name="business_name" autocomplete="organization" value="${escapeHtml(account.business_profile?.name ?? '')}">
  <label for="business_url">Business website</label>
  <input id="business_url" name="business_url" type="url" autocomplete="url" value="${escapeHtml(account.business_profile?.url ?? 'https://example.com')}">
  <button type="submit">Complete onboarding</button>
</form>
<p><a href="${escapeHtml(input.returnUrl)}">Return without completing</a></p>`,
  );
}

export function paymentPage(input: {
  session: Stripe.Checkout.Session;
  lineItems: Stripe.LineItem[];
  merchant: string;
  askEmail: boolean;
  trialDays: number | null;
  error?: string;
  cardNumber?: string;
  email?: string;
}): string {
  const { session } = input;
  const currency = session.currency ?? 'eur';
  // A subscription with a trial is due 0 today; the page shows what the plan costs.
  const total = formatAmount(input.lineItems.reduce((sum, item) => sum + item.amount_total, 0), currency);
  const recurring = input.lineItems.find((item) => item.price?.recurring)?.price?.recurring;
  const { trialDays } = input;
  const headline = recurring ? `${total} per ${recurring.interval}` : total;
  const rows = input.lineItems
    .map((item) => `<tr><td>${escapeHtml(item.description ?? '')}${(item.quantity ?? 1) > 1 ? ` × ${item.quantity}` : ''}</td><td>${escapeHtml(formatAmount(item.amount_total, item.currency))}</td></tr>`)
    .join('\n');
  return layout(
    `Pay ${input.merchant}`,
    `<h1>Pay ${escapeHtml(input.merchant)}</h1>
<p class="total" data-testid="amount">${escapeHtml(headline)}</p>
${trialDays ? `<p>${trialDays} days free, then ${escapeHtml(headline)}</p>\n` : ''}<table aria-label="Order summary">
${rows}
</table>
${input.error ? `<p role="alert">${escapeHtml(input.error)}</p>\n` : ''}<form method="post">
${
  input.askEmail
    ? `  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(input.email ?? '')}">
`
    : ''
}  <label for="card_number">Card number</label>
  <input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" required placeholder="1234 1234 1234 1234" value="${escapeHtml(input.cardNumber ?? '')}">
  <button type="submit">Pay</button>
</form>
${session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Back</a></p>` : ''}`,
  );
}

export function portalPage(input: { customer: Stripe.Customer; subscriptions: Stripe.Subscription[]; returnUrl: string | null }): string {
  const rows = input.subscriptions
    .map((sub) => {
      const item = sub.items.data[0];
      const price = item?.price;
      const name = price && typeof price.product !== 'string' && !('deleted' in price.product && price.product.deleted) ? price.product.name : (price?.nickname ?? 'Plan');
      const amount = price ? `${formatAmount((price.unit_amount ?? 0) * (item?.quantity ?? 1), price.currency)} per ${price.recurring?.interval ?? 'month'}` : '';
      return `<section aria-label="${escapeHtml(name)}">
  <h2>${escapeHtml(name)}</h2>
  <p>${escapeHtml(amount)} · ${escapeHtml(sub.status)}${sub.cancel_at_period_end ? ' · cancels at the end of the period' : ''}</p>
  <form method="post">
    <input type="hidden" name="subscription" value="${escapeHtml(sub.id)}">
    <button type="submit" class="secondary">Cancel plan</button>
  </form>
</section>`;
    })
    .join('\n');
  return layout(
    'Manage your plan',
    `<h1>Manage your plan</h1>
<p>${escapeHtml(input.customer.email ?? input.customer.id)}</p>
${rows || '<p>You have no active plan.</p>'}
${input.returnUrl ? `<p><a href="${escapeHtml(input.returnUrl)}">Return</a></p>` : ''}`,
  );
}

export function oauthPage(input: { clientId: string }): string {
  return layout(
    'Connect with Stripe',
    `<h1>Connect your Stripe account</h1>
<p>The platform ${escapeHtml(input.clientId)} asks to take payments on your behalf.</p>
<form method="post">
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="email" value="owner@example.com">
  <button type="submit" name="decision" value="allow">Connect</button>
  <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>`,
  );
}
