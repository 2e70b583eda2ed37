import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';

/**
 * Typed factories for the objects the fake Stripe answers with. Every one returns the SDK's own
 * type, so an SDK upgrade that adds, renames or retypes a field breaks the compile here rather
 * than letting the fake drift from what Stripe sends.
 */

export const nowSeconds = () => Math.floor(Date.now() / 1000);

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** An id shaped like Stripe's: `cus` → cus_X3b…, `pi_3` → pi_3Qx… (random base-62 characters after the prefix). */
export function stripeId(prefix: string, length = 24): string {
  let out = '';
  for (const byte of randomBytes(length)) out += ALPHABET[byte % ALPHABET.length];
  return prefix.includes('_') ? `${prefix}${out}` : `${prefix}_${out}`;
}

const DAY = 86_400;

/** The default currency Stripe gives a new account of this country. */
export function currencyOfCountry(country: string): string {
  const byCountry: Record<string, string> = {
    US: 'usd', GB: 'gbp', CH: 'chf', CA: 'cad', AU: 'aud', NZ: 'nzd', JP: 'jpy', SE: 'sek', NO: 'nok', DK: 'dkk',
    PL: 'pln', CZ: 'czk', HU: 'huf', RO: 'ron', BG: 'bgn', SG: 'sgd', HK: 'hkd', MX: 'mxn', BR: 'brl', IN: 'inr',
  };
  return byCountry[country.toUpperCase()] ?? 'eur';
}

/** How many minor units a currency has (0 for JPY, 2 for EUR, 3 for KWD), as Intl knows it. */
export function currencyDecimals(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** An amount in minor units as a person reads it: 5000 eur → €50.00. */
export function formatAmount(amount: number, currency: string): string {
  const decimals = currencyDecimals(currency);
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).format(amount / 10 ** decimals);
  } catch {
    return `${(amount / 10 ** decimals).toFixed(decimals)} ${currency.toUpperCase()}`;
  }
}

/** What a new connected account still has to provide before it can take payments. */
export const ONBOARDING_REQUIREMENTS = [
  'business_profile.mcc',
  'business_profile.url',
  'external_account',
  'representative.first_name',
  'representative.last_name',
  'tos_acceptance.date',
  'tos_acceptance.ip',
];

export function requirements(currentlyDue: string[]): Stripe.Account.Requirements {
  return {
    alternatives: [],
    current_deadline: null,
    currently_due: currentlyDue,
    disabled_reason: currentlyDue.length ? 'requirements.past_due' : null,
    errors: [],
    eventually_due: currentlyDue,
    past_due: currentlyDue,
    pending_verification: [],
  };
}

export function futureRequirements(): Stripe.Account.FutureRequirements {
  return { alternatives: [], current_deadline: null, currently_due: [], disabled_reason: null, errors: [], eventually_due: [], past_due: [], pending_verification: [] };
}

export function accountObject(input: {
  id?: string;
  type: Stripe.Account.Type;
  country: string;
  email: string | null;
  metadata: Stripe.Metadata;
  businessName?: string | null;
  businessUrl?: string | null;
  complete?: boolean;
}): Stripe.Account {
  const complete = input.complete ?? false;
  const capability = complete ? 'active' : 'inactive';
  return {
    id: input.id ?? stripeId('acct_1', 15),
    object: 'account',
    business_profile: {
      mcc: complete ? '4722' : null,
      minority_owned_business_designation: null,
      name: input.businessName ?? null,
      product_description: null,
      specified_commercial_transactions_act_url: null,
      support_address: null,
      support_email: null,
      support_phone: null,
      support_url: null,
      url: input.businessUrl ?? null,
    },
    business_type: null,
    capabilities: { card_payments: capability, transfers: capability },
    charges_enabled: complete,
    controller: {
      type: 'application',
      is_controller: true,
      requirement_collection: 'stripe',
      fees: { payer: input.type === 'express' ? 'application' : 'account' },
      losses: { payments: input.type === 'express' ? 'application' : 'stripe' },
      stripe_dashboard: { type: input.type === 'express' ? 'express' : input.type === 'custom' ? 'none' : 'full' },
    },
    country: input.country,
    created: nowSeconds(),
    default_currency: currencyOfCountry(input.country),
    details_submitted: complete,
    email: input.email,
    future_requirements: futureRequirements(),
    metadata: input.metadata,
    payouts_enabled: complete,
    requirements: requirements(complete ? [] : [...ONBOARDING_REQUIREMENTS]),
    tos_acceptance: complete ? { date: nowSeconds(), ip: '127.0.0.1', user_agent: null } : { date: null, ip: null, user_agent: null },
    type: input.type,
  };
}

export function deletedAccountObject(id: string): Stripe.DeletedAccount {
  return { id, object: 'account', deleted: true };
}

export function accountLinkObject(url: string): Stripe.AccountLink {
  const created = nowSeconds();
  return { object: 'account_link', created, expires_at: created + 300, url };
}

export function productObject(input: { id?: string; name: string; description?: string | null; metadata?: Stripe.Metadata }): Stripe.Product {
  const created = nowSeconds();
  return {
    id: input.id ?? stripeId('prod', 14),
    object: 'product',
    active: true,
    created,
    default_price: null,
    description: input.description ?? null,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: input.metadata ?? {},
    name: input.name,
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    tax_details: null,
    type: 'service',
    unit_label: null,
    updated: created,
    url: null,
  };
}

export function priceObject(input: {
  id?: string;
  product: string;
  currency: string;
  unitAmount: number;
  recurring?: { interval: Stripe.Price.Recurring.Interval; intervalCount: number } | null;
  lookupKey?: string | null;
  nickname?: string | null;
  metadata?: Stripe.Metadata;
}): Stripe.Price {
  return {
    id: input.id ?? stripeId('price_1', 22),
    object: 'price',
    active: true,
    billing_scheme: 'per_unit',
    created: nowSeconds(),
    currency: input.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: input.lookupKey ?? null,
    metadata: input.metadata ?? {},
    nickname: input.nickname ?? null,
    product: input.product,
    recurring: input.recurring
      ? { interval: input.recurring.interval, interval_count: input.recurring.intervalCount, meter: null, trial_period_days: null, usage_type: 'licensed' }
      : null,
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: input.recurring ? 'recurring' : 'one_time',
    unit_amount: input.unitAmount,
    unit_amount_decimal: Stripe.Decimal.from(input.unitAmount),
  };
}

/** The legacy plan Stripe still sends next to a subscription item's price. */
export function planOfPrice(price: Stripe.Price): Stripe.Plan {
  const recurring = price.recurring ?? { interval: 'month', interval_count: 1 };
  return {
    id: price.id,
    object: 'plan',
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: 'per_unit',
    created: price.created,
    currency: price.currency,
    interval: recurring.interval,
    interval_count: recurring.interval_count,
    livemode: false,
    metadata: price.metadata,
    meter: null,
    nickname: price.nickname,
    product: typeof price.product === 'string' ? price.product : price.product.id,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
}

export function lineItemObject(input: { price: Stripe.Price; quantity: number; description: string }): Stripe.LineItem {
  const amount = (input.price.unit_amount ?? 0) * input.quantity;
  return {
    id: stripeId('li_1', 22),
    object: 'item',
    adjustable_quantity: null,
    amount_discount: 0,
    amount_subtotal: amount,
    amount_tax: 0,
    amount_total: amount,
    currency: input.price.currency,
    description: input.description,
    metadata: {},
    price: input.price,
    quantity: input.quantity,
  };
}

export function checkoutSessionObject(input: {
  id?: string;
  mode: Stripe.Checkout.Session.Mode;
  amountTotal: number;
  currency: string;
  url: (id: string) => string;
  successUrl: string;
  cancelUrl: string | null;
  expiresAt: number;
  clientReferenceId: string | null;
  customer: string | null;
  customerEmail: string | null;
  metadata: Stripe.Metadata;
  locale: Stripe.Checkout.Session.Locale | null;
}): Stripe.Checkout.Session {
  const id = input.id ?? stripeId(input.mode === 'subscription' ? 'cs_test_b1' : 'cs_test_a1', 56);
  return {
    id,
    object: 'checkout.session',
    adaptive_pricing: input.mode === 'payment' ? { enabled: false } : null,
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: null,
    amount_subtotal: input.amountTotal,
    amount_total: input.amountTotal,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: input.cancelUrl,
    client_reference_id: input.clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: nowSeconds(),
    currency: input.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: input.customer,
    customer_account: null,
    customer_creation: input.mode === 'payment' && !input.customer ? 'if_required' : null,
    customer_details: input.customerEmail ? customerDetails(input.customerEmail) : null,
    customer_email: input.customerEmail,
    discounts: [],
    expires_at: input.expiresAt,
    integration_identifier: null,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: input.locale,
    managed_payments: null,
    metadata: input.metadata,
    mode: input.mode,
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: input.mode === 'subscription' ? 'always' : null,
    payment_method_configuration_details: null,
    payment_method_options: {},
    payment_method_types: ['card'],
    payment_status: 'unpaid',
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: input.successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted_page',
    url: input.url(id),
    wallet_options: null,
  };
}

export function customerDetails(email: string, name: string | null = null): Stripe.Checkout.Session.CustomerDetails {
  return { address: null, business_name: null, email, individual_name: null, name, phone: null, tax_exempt: 'none', tax_ids: [] };
}

export interface PaymentError {
  code: string;
  declineCode?: string;
  message: string;
}

export function paymentIntentObject(input: {
  amount: number;
  currency: string;
  applicationFeeAmount: number | null;
  metadata: Stripe.Metadata;
  description: string | null;
  customer: string | null;
  receiptEmail: string | null;
}): Stripe.PaymentIntent {
  const id = stripeId('pi_3', 22);
  return {
    id,
    object: 'payment_intent',
    allowed_payment_method_types: null,
    amount: input.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: 0,
    application: null,
    application_fee_amount: input.applicationFeeAmount,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic_async',
    client_secret: `${id}_secret_${stripeId('x', 25).slice(2)}`,
    confirmation_method: 'automatic',
    created: nowSeconds(),
    currency: input.currency,
    customer: input.customer,
    customer_account: null,
    description: input.description,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata: input.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: { card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    payment_record: null,
    processing: null,
    receipt_email: input.receiptEmail,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'requires_payment_method',
    transfer_data: null,
    transfer_group: null,
  };
}

export function lastPaymentError(error: PaymentError, charge: string): Stripe.PaymentIntent.LastPaymentError {
  return {
    charge,
    code: error.code,
    ...(error.declineCode ? { decline_code: error.declineCode } : {}),
    doc_url: `https://stripe.com/docs/error-codes/${error.code.replace(/_/g, '-')}`,
    message: error.message,
    type: 'card_error',
  };
}

export function chargeObject(input: {
  paymentIntent: Stripe.PaymentIntent;
  paymentMethod: string;
  brand: string;
  last4: string;
  email: string | null;
  failure: PaymentError | null;
}): Stripe.Charge {
  const pi = input.paymentIntent;
  const id = stripeId('ch_3', 22);
  const failed = input.failure !== null;
  return {
    id,
    object: 'charge',
    amount: pi.amount,
    amount_captured: failed ? 0 : pi.amount,
    amount_refunded: 0,
    application: null,
    application_fee: !failed && pi.application_fee_amount ? stripeId('fee_1', 22) : null,
    application_fee_amount: pi.application_fee_amount,
    balance_transaction: failed ? null : stripeId('txn_3', 22),
    billing_details: { address: null, email: input.email, name: null, phone: null, tax_id: null },
    calculated_statement_descriptor: 'TOURDESK TEST',
    captured: !failed,
    created: nowSeconds(),
    currency: pi.currency,
    customer: typeof pi.customer === 'string' ? pi.customer : (pi.customer?.id ?? null),
    description: pi.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: input.failure?.code ?? null,
    failure_message: input.failure?.message ?? null,
    fraud_details: {},
    livemode: false,
    metadata: pi.metadata,
    on_behalf_of: null,
    outcome: {
      advice_code: null,
      network_advice_code: null,
      network_decline_code: null,
      network_status: failed ? 'declined_by_network' : 'approved_by_network',
      reason: input.failure?.declineCode ?? null,
      risk_level: 'normal',
      risk_score: 12,
      seller_message: failed ? 'The bank did not return any further details with this decline.' : 'Payment complete.',
      type: failed ? 'issuer_declined' : 'authorized',
    },
    paid: !failed,
    payment_intent: pi.id,
    payment_method: input.paymentMethod,
    payment_method_details: null,
    receipt_email: pi.receipt_email,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    refunds: { object: 'list', data: [], has_more: false, url: `/v1/charges/${id}/refunds` },
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: failed ? 'failed' : 'succeeded',
    transfer_data: null,
    transfer_group: null,
  };
}

export function refundObject(input: {
  amount: number;
  charge: Stripe.Charge;
  reason: Stripe.Refund.Reason | null;
  metadata: Stripe.Metadata;
}): Stripe.Refund {
  return {
    id: stripeId('re_3', 22),
    object: 'refund',
    amount: input.amount,
    balance_transaction: stripeId('txn_3', 22),
    charge: input.charge.id,
    created: nowSeconds(),
    currency: input.charge.currency,
    customer: typeof input.charge.customer === 'string' ? input.charge.customer : (input.charge.customer?.id ?? null),
    customer_account: null,
    metadata: input.metadata,
    payment_intent: typeof input.charge.payment_intent === 'string' ? input.charge.payment_intent : (input.charge.payment_intent?.id ?? null),
    payment_method: input.charge.payment_method,
    reason: input.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
}

export function customerObject(input: { email: string | null; name: string | null; description?: string | null; phone?: string | null; metadata: Stripe.Metadata }): Stripe.Customer {
  const id = stripeId('cus', 14);
  return {
    id,
    object: 'customer',
    address: null,
    balance: 0,
    created: nowSeconds(),
    currency: null,
    customer_account: null,
    default_source: null,
    delinquent: false,
    description: input.description ?? null,
    discount: null,
    email: input.email,
    invoice_prefix: id.slice(4, 12).toUpperCase(),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: input.metadata,
    name: input.name,
    next_invoice_sequence: 1,
    phone: input.phone ?? null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  };
}

export function deletedCustomerObject(id: string): Stripe.DeletedCustomer {
  return { id, object: 'customer', deleted: true };
}

/** The end of a billing period that starts at `start`, `count` intervals later (calendar months and years, as Stripe does). */
export function periodEnd(start: number, interval: Stripe.Price.Recurring.Interval, count: number): number {
  const date = new Date(start * 1000);
  if (interval === 'day') return start + count * DAY;
  if (interval === 'week') return start + count * 7 * DAY;
  if (interval === 'year') date.setUTCFullYear(date.getUTCFullYear() + count);
  else date.setUTCMonth(date.getUTCMonth() + count);
  return Math.floor(date.getTime() / 1000);
}

export function subscriptionItemObject(input: { subscription: string; price: Stripe.Price; quantity: number; periodStart: number; periodEnd: number }): Stripe.SubscriptionItem {
  return {
    id: stripeId('si', 14),
    object: 'subscription_item',
    billing_thresholds: null,
    created: nowSeconds(),
    current_period_end: input.periodEnd,
    current_period_start: input.periodStart,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan: planOfPrice(input.price),
    price: input.price,
    quantity: input.quantity,
    subscription: input.subscription,
    tax_rates: [],
  };
}

export function subscriptionObject(input: {
  customer: string;
  currency: string;
  items: { price: Stripe.Price; quantity: number }[];
  trialPeriodDays: number | null;
  metadata: Stripe.Metadata;
  description?: string | null;
  paymentMethod: string | null;
}): Stripe.Subscription {
  const id = stripeId('sub_1', 22);
  const start = nowSeconds();
  const trialEnd = input.trialPeriodDays ? start + input.trialPeriodDays * DAY : null;
  const items = input.items.map((item) => {
    const recurring = item.price.recurring ?? { interval: 'month', interval_count: 1 };
    const end = trialEnd ?? periodEnd(start, recurring.interval, recurring.interval_count);
    return subscriptionItemObject({ subscription: id, price: item.price, quantity: item.quantity, periodStart: start, periodEnd: end });
  });
  return {
    id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: trialEnd ?? start,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'classic' },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: null },
    collection_method: 'charge_automatically',
    created: start,
    currency: input.currency,
    customer: input.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: input.paymentMethod,
    default_source: null,
    default_tax_rates: [],
    description: input.description ?? null,
    discounts: [],
    ended_at: null,
    invoice_settings: { account_tax_ids: null, custom_fields: null, description: null, footer: null, issuer: { type: 'self' } },
    items: { object: 'list', data: items, has_more: false, url: `/v1/subscription_items?subscription=${id}` },
    latest_invoice: null,
    livemode: false,
    managed_payments: null,
    metadata: input.metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: 'off' },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: start,
    status: trialEnd ? 'trialing' : 'active',
    test_clock: null,
    transfer_data: null,
    trial_end: trialEnd,
    trial_settings: { end_behavior: { billing_cycle_anchor: null, missing_payment_method: 'create_invoice' } },
    trial_start: trialEnd ? start : null,
  };
}

export function portalSessionObject(input: { customer: string; returnUrl: string | null; url: (id: string) => string; locale: Stripe.BillingPortal.Session.Locale | null }): Stripe.BillingPortal.Session {
  const id = stripeId('bps_1', 22);
  return {
    id,
    object: 'billing_portal.session',
    configuration: stripeId('bpc_1', 22),
    created: nowSeconds(),
    customer: input.customer,
    customer_account: null,
    flow: null,
    livemode: false,
    locale: input.locale,
    on_behalf_of: null,
    return_url: input.returnUrl,
    url: input.url(id),
  };
}

export function applicationObject(id: string): Stripe.Application {
  return { id, object: 'application', name: 'Tourdesk (test)' };
}

export function oauthTokenObject(input: { account: string; accessToken: string; refreshToken: string; scope: string }): Stripe.OAuthToken {
  return {
    access_token: input.accessToken,
    livemode: false,
    refresh_token: input.refreshToken,
    scope: input.scope,
    stripe_publishable_key: `pk_test_${input.account.slice(5)}`,
    stripe_user_id: input.account,
    token_type: 'bearer',
  };
}

export type EventType = Stripe.Event['type'];
/** The object an event of this type carries in `data.object` (a Checkout Session for checkout.session.completed, …). */
export type EventObject<T extends EventType> = Extract<Stripe.Event, { type: T }>['data']['object'];
export type EventOf<T extends EventType> = Extract<Stripe.Event, { type: T }>;

export function eventObject<T extends EventType>(input: {
  id?: string;
  type: T;
  object: EventObject<T>;
  account: string | null;
  previousAttributes?: Partial<EventObject<T>>;
  request?: { id: string | null; idempotencyKey: string | null };
}): EventOf<T> {
  const envelope: Omit<Stripe.EventBase, 'type' | 'data'> = {
    id: input.id ?? stripeId('evt_1', 22),
    object: 'event',
    ...(input.account ? { account: input.account } : {}),
    api_version: Stripe.API_VERSION,
    created: nowSeconds(),
    livemode: false,
    pending_webhooks: 1,
    request: input.request ? { id: input.request.id, idempotency_key: input.request.idempotencyKey } : { id: null, idempotency_key: null },
  };
  const data = input.previousAttributes ? { object: input.object, previous_attributes: input.previousAttributes } : { object: input.object };
  // The union of event types cannot be narrowed from a generic parameter; the parts are typed above.
  return { ...envelope, type: input.type, data } as unknown as EventOf<T>;
}
