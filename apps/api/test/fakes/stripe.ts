import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import qs from 'qs';
import Stripe from 'stripe';
import * as o from './stripe-objects';
import { type EventObject, type EventType, formatAmount, currencyDecimals, nowSeconds, stripeId } from './stripe-objects';
import * as pages from './stripe-pages';

/**
 * A fake of Stripe's HTTP API for tests, reached through the real `stripe` SDK (point it here with
 * `new Stripe(key, fake.sdkOptions)`). It keeps state like Stripe does (connected accounts, Checkout
 * Sessions, PaymentIntents, charges, refunds, customers, subscriptions, events), honours the
 * `Stripe-Account` header and `Idempotency-Key`, answers errors in Stripe's shape (so the SDK raises
 * its own error classes), serves the hosted pages a person uses (Connect onboarding, the payment page,
 * the customer portal, OAuth consent), and posts events signed like Stripe's to a webhook URL.
 * Anything it does not know answers 404 `Unrecognized request URL`, so an unexpected call fails loudly.
 */

export interface FakeStripeOptions {
  /** Port to listen on (127.0.0.1); a free one when omitted. */
  port?: number;
  /** Where events are posted (the app's webhook route). Events are only recorded while none is set. */
  webhookUrl?: string;
  /** The endpoint's signing secret (whsec_…); a random one when omitted. */
  webhookSecret?: string;
  /** The base URL a browser uses to reach the fake's hosted pages; `url` when omitted. */
  publicUrl?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, unknown>;
  /** The Stripe-Account header: the connected account the call acts on, null for the platform. */
  account: string | null;
  idempotencyKey: string | null;
  apiKey: string | null;
  stripeVersion: string | null;
  /** The form body parsed with qs (line_items[0][quantity]=1 → { line_items: [{ quantity: '1' }] }). */
  body: Record<string, unknown>;
  status: number;
  /** True when answered from the idempotency store instead of executed. */
  replayed: boolean;
}

export interface WebhookDelivery {
  eventId: string;
  type: string;
  url: string;
  /** The app's HTTP status; 0 when it could not be reached. */
  status: number;
  error?: string;
}

export interface FakeStripeState {
  accounts: Map<string, Stripe.Account>;
  checkoutSessions: Map<string, Stripe.Checkout.Session>;
  /** The line items of each Checkout Session (GET /v1/checkout/sessions/:id/line_items, expand[]=line_items). */
  lineItems: Map<string, Stripe.LineItem[]>;
  paymentIntents: Map<string, Stripe.PaymentIntent>;
  charges: Map<string, Stripe.Charge>;
  refunds: Map<string, Stripe.Refund>;
  customers: Map<string, Stripe.Customer>;
  products: Map<string, Stripe.Product>;
  prices: Map<string, Stripe.Price>;
  subscriptions: Map<string, Stripe.Subscription>;
  portalSessions: Map<string, Stripe.BillingPortal.Session>;
  events: Map<string, Stripe.Event>;
  /** Which connected account each object belongs to (null: the platform's own account). */
  owners: Map<string, string | null>;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Every webhook delivery attempted, in order. */
  deliveries: WebhookDelivery[];
}

export interface SendOptions<T extends EventType> {
  /** The connected account the event comes from (the event's `account`); none for the platform's own events. */
  account?: string;
  /** How many copies of the same event (same id) to post at once, to test exactly-once handling (default 1). */
  duplicate?: number;
  /** The event id (evt_…); a new one when omitted. */
  id?: string;
  previousAttributes?: Partial<EventObject<T>>;
}

export type PaymentResult = { ok: true; session: Stripe.Checkout.Session; redirectUrl: string } | { ok: false; message: string; expired?: boolean };

export interface FakeStripe {
  /** http://127.0.0.1:port */
  url: string;
  port: number;
  /** Where the hosted pages are reached by a browser (the publicUrl option, else url). */
  publicUrl: string;
  /** The options to pass to `new Stripe(key, fake.sdkOptions)`. */
  sdkOptions: { host: string; port: number; protocol: 'http'; maxNetworkRetries: 0; telemetry: false };
  state: FakeStripeState;
  /** Every event created so far (sent or not), oldest first. */
  readonly events: Stripe.Event[];
  readonly webhookUrl: string | null;
  readonly webhookSecret: string;
  /** Where events go from now on (null: nowhere), and the secret they are signed with. */
  setWebhook(url: string | null, secret?: string): void;
  /** Posts a signed event to the webhook URL and resolves with the app's HTTP status for each copy posted. */
  send<T extends EventType>(type: T, object: EventObject<T>, options?: SendOptions<T>): Promise<number[]>;
  /** Posts an event already created again (same id, fresh signature), as Stripe's retries do. */
  resend(eventId: string, options?: { duplicate?: number }): Promise<number[]>;
  /** Holds back the events the fake creates itself (payments, refunds, …) until resumeWebhooks(). */
  pauseWebhooks(): void;
  /** Delivers the held events in order; resolves with the app's status for each. */
  resumeWebhooks(): Promise<number[]>;
  /** Resolves when every webhook delivery in flight has been answered. */
  settled(): Promise<void>;
  /** What the onboarding page's button does: the account can take payments; account.updated is sent. */
  completeOnboarding(accountId: string, details?: { businessName?: string; businessUrl?: string }): Promise<Stripe.Account>;
  /** What the payment page's Pay button does, without a browser (card 4242424242424242 succeeds, 4000000000000002 is declined). */
  payCheckoutSession(sessionId: string, payment?: { card?: string; email?: string }): Promise<PaymentResult>;
  /** What Stripe does when a session reaches expires_at: status expired, checkout.session.expired sent. */
  expireCheckoutSession(sessionId: string): Promise<Stripe.Checkout.Session>;
  /**
   * What Stripe does some time after a refund was made: a pending one (the card 4000000000007726's
   * refunds start pending) succeeds or fails; a succeeded one can still fail (as the card
   * 4000000000005126's do). A failed refund's money goes back to the charge (amount_refunded falls).
   * Sends refund.updated and charge.refund.updated, and refund.failed when it failed.
   */
  finishRefund(refundId: string, outcome: 'succeeded' | 'failed'): Promise<Stripe.Refund>;
  /** A Connect OAuth authorization code for POST /oauth/token (a new, onboarded standard account when none is given). */
  issueOAuthCode(accountId?: string): string;
  close(): Promise<void>;
}

/* ------------------------------------------------------------------------------------------------ */
/* Errors in Stripe's shape                                                                          */

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly payload: Record<string, unknown>,
    /** Stripe saves an idempotent result only once an endpoint started executing, not for a failed validation. */
    readonly saveIdempotent = true,
  ) {
    super(JSON.stringify(payload));
  }
}

type ErrorFields = { message: string; type?: string; code?: string; param?: string; decline_code?: string; [key: string]: unknown };
function apiError(status: number, fields: ErrorFields, saveIdempotent = true): ApiError {
  const { type = 'invalid_request_error', ...rest } = fields;
  const docUrl = rest.code ? { doc_url: `https://stripe.com/docs/error-codes/${String(rest.code).replace(/_/g, '-')}` } : {};
  return new ApiError(status, { error: { ...docUrl, ...rest, type, request_log_url: undefined } }, saveIdempotent);
}
/** A request that failed validation (400, not saved for idempotency). */
function invalid(message: string, param?: string, code?: string): ApiError {
  return apiError(400, { message, ...(param ? { param } : {}), ...(code ? { code } : {}) }, false);
}
function missing(param: string): ApiError {
  return invalid(`Missing required param: ${param}.`, param, 'parameter_missing');
}
/** An object that does not exist, or not on this account: 404 for an id in the path, 400 for one in a parameter. */
function noSuch(kind: string, id: string, param: string, status = 404): ApiError {
  return apiError(status, { code: 'resource_missing', message: `No such ${kind}: '${id}'`, param });
}
function oauthError(status: number, error: string, description: string): ApiError {
  return new ApiError(status, { error, error_description: description });
}

/* ------------------------------------------------------------------------------------------------ */
/* Form parameters                                                                                   */

type Raw = Record<string, unknown>;
const isRecord = (value: unknown): value is Raw => typeof value === 'object' && value !== null && !Array.isArray(value);
const QS_OPTIONS = { depth: 12, arrayLimit: 1000, parameterLimit: 10_000 } as const;

function orList(values: readonly string[]): string {
  return values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')}, or ${values.at(-1)}`;
}

/** Typed reads of a qs-parsed form body, failing like Stripe (param named in bracket form). */
class Params {
  constructor(
    readonly raw: unknown,
    private readonly prefix = '',
  ) {}
  name(key: string): string {
    return this.prefix ? `${this.prefix}[${key}]` : key;
  }
  get(key: string): unknown {
    if (isRecord(this.raw)) return this.raw[key];
    if (Array.isArray(this.raw)) return this.raw[Number(key)];
    return undefined;
  }
  has(key: string): boolean {
    const value = this.get(key);
    return value !== undefined && value !== '';
  }
  string(key: string): string | undefined {
    const value = this.get(key);
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string') throw invalid(`Invalid string: ${this.name(key)}`, this.name(key));
    return value;
  }
  required(key: string): string {
    const value = this.string(key);
    if (value === undefined) throw missing(this.name(key));
    return value;
  }
  oneOf<T extends string>(key: string, values: readonly T[]): T | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    if (!(values as readonly string[]).includes(value)) throw invalid(`Invalid ${this.name(key)}: must be one of ${orList(values)}`, this.name(key));
    return value as T;
  }
  int(key: string, min?: number): number | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    if (!/^-?\d+$/.test(value)) throw invalid(`Invalid integer: ${value}`, this.name(key));
    const n = Number(value);
    if (min !== undefined && n < min) throw invalid(`This value must be greater than or equal to ${min}.`, this.name(key));
    return n;
  }
  bool(key: string): boolean | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    if (value === 'true') return true;
    if (value === 'false') return false;
    throw invalid(`Invalid boolean: ${value}`, this.name(key));
  }
  url(key: string, required: boolean): string | undefined {
    const value = required ? this.required(key) : this.string(key);
    if (value === undefined) return undefined;
    try {
      const parsed = new URL(value.replace(/\{CHECKOUT_SESSION_ID\}/g, 'cs'));
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('scheme');
    } catch {
      throw invalid('Not a valid URL', this.name(key), 'url_invalid');
    }
    return value;
  }
  currency(key: string): string {
    const value = this.required(key).toLowerCase();
    if (!/^[a-z]{3}$/.test(value)) throw invalid(`Invalid currency: ${value}. Stripe currently supports these currencies: eur, usd, gbp, …`, this.name(key));
    return value;
  }
  object(key: string): Params {
    const value = this.get(key);
    if (value !== undefined && value !== '' && !isRecord(value)) throw invalid(`Invalid object`, this.name(key));
    return new Params(isRecord(value) ? value : {}, this.name(key));
  }
  list(key: string): Params[] {
    const value = this.get(key);
    if (value === undefined || value === '') return [];
    let items: unknown[];
    if (Array.isArray(value)) items = value;
    else if (isRecord(value)) items = Object.keys(value).sort((a, b) => Number(a) - Number(b)).map((k) => value[k]);
    else throw invalid(`Invalid array`, this.name(key));
    return items.map((item, index) => new Params(item, `${this.name(key)}[${index}]`));
  }
  strings(key: string): string[] {
    return this.list(key).map((item) => {
      if (typeof item.raw !== 'string') throw invalid('Invalid array', this.name(key));
      return item.raw;
    });
  }
  /** metadata[key]=value pairs; an empty value (or `metadata=`) unsets, as in Stripe. */
  metadata(key = 'metadata'): Record<string, string> | undefined {
    const value = this.get(key);
    if (value === undefined) return undefined;
    if (value === '') return {};
    if (!isRecord(value)) throw invalid('Invalid hash', this.name(key));
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(value)) {
      if (typeof v !== 'string') throw invalid('Metadata values must be strings', `${this.name(key)}[${k}]`);
      if (k.length > 40) throw invalid(`Metadata keys can have up to 40 characters: ${k}`, `${this.name(key)}[${k}]`);
      if (v.length > 500) throw invalid('Metadata values can have up to 500 characters', `${this.name(key)}[${k}]`);
      out[k] = v;
    }
    if (Object.keys(out).length > 50) throw invalid('Metadata can have up to 50 keys', this.name(key));
    return out;
  }
}

function mergeMetadata(current: Stripe.Metadata | null, update: Record<string, string> | undefined): Stripe.Metadata {
  const out: Stripe.Metadata = { ...(current ?? {}) };
  if (update === undefined) return out;
  if (Object.keys(update).length === 0) return {};
  for (const [k, v] of Object.entries(update)) {
    if (v === '') delete out[k];
    else out[k] = v;
  }
  return out;
}

function createdMetadata(update: Record<string, string> | undefined): Stripe.Metadata {
  return mergeMetadata({}, update);
}

/** Canonical JSON (sorted keys), to compare two requests' parameters. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isRecord(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** A deep copy as it travels over the wire (Decimals become strings). */
function wire<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** The top-level fields whose value changed, with their value before: an event's previous_attributes. */
function previousAttributes<T extends object>(before: T, after: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) out[key] = before[key];
  }
  return out;
}

function redactKey(key: string): string {
  return key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}` : key;
}

function fillSessionId(url: string, id: string): string {
  return url.replace(/\{CHECKOUT_SESSION_ID\}/g, id);
}

/** Stripe's test cards; `refund: 'pending'`: its refunds start pending (finishRefund() ends them). */
const CARDS: Record<string, { brand: string; failure?: o.PaymentError; refund?: 'pending' }> = {
  '4242424242424242': { brand: 'visa' },
  '4000000000007726': { brand: 'visa', refund: 'pending' },
  '4000000000005126': { brand: 'visa' },
  '4000056655665556': { brand: 'visa' },
  '5555555555554444': { brand: 'mastercard' },
  '4000000000000002': { brand: 'visa', failure: { code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' } },
  '4000000000009995': { brand: 'visa', failure: { code: 'card_declined', declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' } },
  '4000000000000069': { brand: 'visa', failure: { code: 'expired_card', message: 'Your card has expired.' } },
};
/** Stripe's test PaymentMethods for server-side confirmation. */
const TEST_PAYMENT_METHODS: Record<string, string> = {
  pm_card_visa: '4242424242424242',
  pm_card_refundPending: '4000000000007726',
  pm_card_mastercard: '5555555555554444',
  pm_card_chargeDeclined: '4000000000000002',
  pm_card_chargeDeclinedInsufficientFunds: '4000000000009995',
  pm_card_chargeDeclinedExpiredCard: '4000000000000069',
};

interface SessionInfo {
  applicationFeeAmount: number | null;
  paymentMetadata: Stripe.Metadata;
  paymentDescription: string | null;
  receiptEmail: string | null;
  trialDays: number | null;
  subscriptionMetadata: Stripe.Metadata;
  subscriptionDescription: string | null;
}

interface Ctx {
  p: Params;
  account: string | null;
  args: string[];
  apiKey: string;
  requestId: string;
  idempotencyKey: string | null;
}
type Handler = (ctx: Ctx) => object;

/* ------------------------------------------------------------------------------------------------ */

export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const state: FakeStripeState = {
    accounts: new Map(),
    checkoutSessions: new Map(),
    lineItems: new Map(),
    paymentIntents: new Map(),
    charges: new Map(),
    refunds: new Map(),
    customers: new Map(),
    products: new Map(),
    prices: new Map(),
    subscriptions: new Map(),
    portalSessions: new Map(),
    events: new Map(),
    owners: new Map(),
    requests: [],
    deliveries: [],
  };
  const sessionInfo = new Map<string, SessionInfo>();
  const deletedAccounts = new Set<string>();
  const deauthorized = new Set<string>();
  const oauthCodes = new Map<string, { account: string; used: boolean; scope: string }>();
  const accessTokens = new Map<string, string>();
  const refreshTokens = new Map<string, string>();
  const idempotency = new Map<string, { endpoint: string; fingerprint: string; status: number; body: unknown; requestId: string }>();
  const platform = o.accountObject({ type: 'standard', country: 'US', email: 'platform@example.com', metadata: {}, businessName: 'Platform (test)', complete: true });

  let webhookUrl: string | null = options.webhookUrl ?? null;
  let webhookSecret = options.webhookSecret ?? stripeId('whsec', 32);
  let paused = false;
  const held: Stripe.Event[] = [];
  const pending = new Set<Promise<unknown>>();
  /** Events created by the action being handled; delivered once it has answered. */
  const outbox: Stripe.Event[] = [];
  /** The card number each charge was made with (what its refunds do depends on it). */
  const chargeCards = new Map<string, string>();
  let base = '';

  function own<T extends { id: string }>(map: Map<string, T>, object: T, account: string | null): T {
    map.set(object.id, object);
    state.owners.set(object.id, account);
    return object;
  }
  function ownerOf(id: string): string | null | undefined {
    return state.owners.get(id);
  }
  /** The object with this id on this account, or Stripe's "No such …". */
  function find<T>(map: Map<string, T>, id: string, account: string | null, kind: string, param: string, status = 404): T {
    const found = map.get(id);
    if (!found || ownerOf(id) !== account) throw noSuch(kind, id, param, status);
    return found;
  }

  /* Events and webhooks ------------------------------------------------------------------------ */

  function emit<T extends EventType>(type: T, object: EventObject<T>, account: string | null, previous?: Partial<EventObject<T>>): Stripe.Event {
    const event = o.eventObject({ type, object: wire(object), account, ...(previous && Object.keys(previous).length ? { previousAttributes: wire(previous) } : {}) });
    state.events.set(event.id, event);
    state.owners.set(event.id, account);
    outbox.push(event);
    return event;
  }

  async function post(event: Stripe.Event, url: string, secret: string): Promise<number> {
    const payload = JSON.stringify(event, null, 2);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
    const delivery: WebhookDelivery = { eventId: event.id, type: event.type, url, status: 0 };
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature, 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' },
        body: payload,
        signal: AbortSignal.timeout(15_000),
      });
      await response.arrayBuffer();
      delivery.status = response.status;
    } catch (error) {
      delivery.error = error instanceof Error ? error.message : String(error);
    }
    state.deliveries.push(delivery);
    return delivery.status;
  }

  function track<T>(promise: Promise<T>): Promise<T> {
    pending.add(promise);
    void promise.finally(() => pending.delete(promise)).catch(() => undefined);
    return promise;
  }

  function deliverCopies(event: Stripe.Event, copies: number): Promise<number[]> {
    const url = webhookUrl;
    if (!url) return Promise.resolve([]);
    const secret = webhookSecret;
    return track(Promise.all(Array.from({ length: Math.max(1, copies) }, () => post(event, url, secret))));
  }

  /** Delivers the events the fake made itself, one after the other, unless webhooks are paused. */
  function deliverOwn(events: Stripe.Event[]): Promise<number[]> {
    if (paused) {
      held.push(...events);
      return Promise.resolve([]);
    }
    return track(
      (async () => {
        const statuses: number[] = [];
        for (const event of events) statuses.push(...(await deliverCopies(event, 1)));
        return statuses;
      })(),
    );
  }

  function takeOutbox(): Stripe.Event[] {
    return outbox.splice(0);
  }

  /* Connect ------------------------------------------------------------------------------------ */

  function accessibleAccount(id: string, apiKey: string): Stripe.Account {
    const account = state.accounts.get(id);
    if (!account || deauthorized.has(id)) {
      throw apiError(403, {
        code: 'account_invalid',
        message: `The provided key '${redactKey(apiKey)}' does not have access to account '${id}' (or that account does not exist). Application access may have been revoked.`,
      });
    }
    return account;
  }

  function completeOnboarding(id: string, details: { businessName?: string; businessUrl?: string } = {}): Stripe.Account {
    const account = state.accounts.get(id);
    if (!account) throw new Error(`fake Stripe: no account ${id}`);
    const before = wire(account);
    account.details_submitted = true;
    account.charges_enabled = true;
    account.payouts_enabled = true;
    account.requirements = o.requirements([]);
    account.capabilities = { ...account.capabilities, card_payments: 'active', transfers: 'active' };
    account.tos_acceptance = { date: nowSeconds(), ip: '127.0.0.1', user_agent: 'Mozilla/5.0 (fake Stripe onboarding)' };
    account.business_profile = {
      ...(account.business_profile ?? o.accountObject({ type: 'standard', country: 'US', email: null, metadata: {} }).business_profile!),
      mcc: account.business_profile?.mcc ?? '4722',
      name: details.businessName || account.business_profile?.name || null,
      url: details.businessUrl || account.business_profile?.url || 'https://example.com',
    };
    emit('account.updated', account, id, previousAttributes(before, wire(account)));
    return account;
  }

  function issueOAuthCode(accountId?: string): string {
    let id = accountId;
    if (!id) {
      const account = o.accountObject({ type: 'standard', country: 'US', email: 'owner@example.com', metadata: {}, complete: true });
      own(state.accounts, account, null);
      id = account.id;
    } else if (!state.accounts.has(id)) {
      throw new Error(`fake Stripe: no account ${id}`);
    }
    const code = stripeId('ac', 32);
    oauthCodes.set(code, { account: id, used: false, scope: 'read_write' });
    return code;
  }

  /* Checkout ----------------------------------------------------------------------------------- */

  function priceOfLine(item: Params, account: string | null, mode: Stripe.Checkout.Session.Mode): Stripe.Price {
    const priceId = item.string('price');
    if (priceId) return find(state.prices, priceId, account, 'price', item.name('price'), 400);
    if (!item.has('price_data')) throw invalid(`You must specify either \`price\` or \`price_data\` in ${item.name('')}.`.replace('[]', ''), item.name('price'));
    return priceFromData(item.object('price_data'), account, mode === 'subscription' ? 'either' : 'one_time');
  }

  /** A price made inline from price_data (product or product_data[name], unit_amount, currency, recurring). */
  function priceFromData(data: Params, account: string | null, kind: 'either' | 'one_time' | 'recurring'): Stripe.Price {
    const currency = data.currency('currency');
    const unitAmount = data.int('unit_amount', 0) ?? (data.has('unit_amount_decimal') ? Math.round(Number(data.string('unit_amount_decimal'))) : undefined);
    if (unitAmount === undefined) throw missing(data.name('unit_amount'));
    let productId = data.string('product');
    if (productId) {
      find(state.products, productId, account, 'product', data.name('product'), 400);
    } else {
      if (!data.has('product_data')) throw missing(data.name('product_data'));
      const productData = data.object('product_data');
      const product = o.productObject({ name: productData.required('name'), description: productData.string('description') ?? null, metadata: createdMetadata(productData.metadata()) });
      product.active = false;
      own(state.products, product, account);
      productId = product.id;
    }
    let recurring: { interval: Stripe.Price.Recurring.Interval; intervalCount: number } | null = null;
    if (data.has('recurring')) {
      if (kind === 'one_time') {
        throw invalid('You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.', data.name('recurring'));
      }
      const rec = data.object('recurring');
      const interval = rec.oneOf('interval', ['day', 'week', 'month', 'year'] as const);
      if (!interval) throw missing(rec.name('interval'));
      recurring = { interval, intervalCount: rec.int('interval_count', 1) ?? 1 };
    } else if (kind === 'recurring') {
      throw missing(data.name('recurring'));
    }
    const price = o.priceObject({ product: productId, currency, unitAmount, recurring });
    price.active = false;
    return own(state.prices, price, account);
  }

  function minimumCharge(currency: string): number {
    const decimals = currencyDecimals(currency);
    return decimals >= 2 ? 50 * 10 ** (decimals - 2) : 50;
  }

  function createCheckoutSession(ctx: Ctx): Stripe.Checkout.Session {
    const { p, account } = ctx;
    const mode = p.oneOf('mode', ['payment', 'setup', 'subscription'] as const);
    if (!mode) throw missing('mode');
    if (mode === 'setup') throw invalid('The fake Stripe does not implement setup mode.', 'mode');
    const uiMode = p.string('ui_mode');
    if (uiMode && uiMode !== 'hosted_page' && uiMode !== 'hosted') throw invalid(`The fake Stripe only implements the hosted payment page (ui_mode ${uiMode}).`, 'ui_mode');
    const successUrl = p.url('success_url', true)!;
    const cancelUrl = p.url('cancel_url', false) ?? null;
    const lines = p.list('line_items');
    if (!lines.length) throw missing('line_items');

    const customerId = p.string('customer') ?? null;
    const customerEmail = p.string('customer_email') ?? null;
    if (customerId && customerEmail) throw invalid('You may only specify one of these parameters: customer, customer_email.', 'customer_email');
    if (customerId) find(state.customers, customerId, account, 'customer', 'customer', 400);
    if (customerEmail && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(customerEmail)) throw invalid(`Invalid email address: ${customerEmail}`, 'customer_email', 'email_invalid');

    const priced = lines.map((line) => {
      const price = priceOfLine(line, account, mode);
      const quantity = line.int('quantity', 1);
      if (quantity === undefined) throw missing(line.name('quantity'));
      if (mode === 'payment' && price.recurring) {
        throw invalid('You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.', line.name('price'));
      }
      const product = state.products.get(typeof price.product === 'string' ? price.product : price.product.id);
      return { price, quantity, description: product?.name ?? '' };
    });
    const currency = priced[0]!.price.currency;
    if (priced.some((line) => line.price.currency !== currency)) throw invalid('All prices on a Checkout Session must have the same currency.', 'line_items');
    if (mode === 'subscription' && !priced.some((line) => line.price.recurring)) {
      throw invalid('You must provide at least one recurring price in `subscription` mode when using prices.', 'line_items');
    }
    const lineItems = priced.map((line) => o.lineItemObject(line));
    const itemsTotal = lineItems.reduce((sum, item) => sum + item.amount_total, 0);

    let applicationFeeAmount: number | null = null;
    let paymentMetadata: Stripe.Metadata = {};
    let paymentDescription: string | null = null;
    let receiptEmail: string | null = null;
    if (p.has('payment_intent_data')) {
      if (mode !== 'payment') throw invalid('You can not pass `payment_intent_data` in `subscription` mode.', 'payment_intent_data');
      const data = p.object('payment_intent_data');
      applicationFeeAmount = data.int('application_fee_amount', 0) ?? null;
      if (applicationFeeAmount !== null && !account) {
        throw invalid(
          'Can only apply an application_fee_amount when the PaymentIntent is attempting a direct payment (using an OAuth key or Stripe-Account header) or destination payment (using `transfer_data[destination]`).',
          data.name('application_fee_amount'),
        );
      }
      if (applicationFeeAmount !== null && applicationFeeAmount > itemsTotal) {
        throw invalid('The application fee amount cannot be greater than the amount of the payment.', data.name('application_fee_amount'));
      }
      paymentMetadata = createdMetadata(data.metadata());
      paymentDescription = data.string('description') ?? null;
      receiptEmail = data.string('receipt_email') ?? null;
    }
    let trialDays: number | null = null;
    let subscriptionMetadata: Stripe.Metadata = {};
    let subscriptionDescription: string | null = null;
    if (p.has('subscription_data')) {
      if (mode !== 'subscription') throw invalid('You can only pass `subscription_data` in `subscription` mode.', 'subscription_data');
      const data = p.object('subscription_data');
      trialDays = data.int('trial_period_days', 1) ?? null;
      subscriptionMetadata = createdMetadata(data.metadata());
      subscriptionDescription = data.string('description') ?? null;
      if (data.has('application_fee_percent') && !account) throw invalid('Can only apply an application_fee_percent with a Stripe-Account header.', data.name('application_fee_percent'));
    }
    if (mode === 'payment' && itemsTotal < minimumCharge(currency)) {
      throw invalid(`The Checkout Session's total amount due must add up to at least ${formatAmount(minimumCharge(currency), currency)} ${currency}`, 'line_items', 'amount_too_small');
    }

    const created = nowSeconds();
    const expiresAt = p.int('expires_at') ?? created + 24 * 3600;
    // Stripe: 30 minutes to 24 hours after creation (a few seconds of slack for the caller's clock).
    if (expiresAt < created + 30 * 60 - 10) throw invalid('The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.', 'expires_at');
    if (expiresAt > created + 24 * 3600 + 10) throw invalid('The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.', 'expires_at');
    const clientReferenceId = p.string('client_reference_id') ?? null;
    if (clientReferenceId && clientReferenceId.length > 200) throw invalid('client_reference_id can have up to 200 characters.', 'client_reference_id');

    const session = o.checkoutSessionObject({
      mode,
      amountTotal: trialDays ? 0 : itemsTotal,
      currency,
      url: (id) => `${base}/pay/${id}`,
      successUrl,
      cancelUrl,
      expiresAt,
      clientReferenceId,
      customer: customerId,
      customerEmail,
      metadata: createdMetadata(p.metadata()),
      locale: (p.string('locale') as Stripe.Checkout.Session.Locale | undefined) ?? null,
    });
    own(state.checkoutSessions, session, account);
    state.lineItems.set(session.id, lineItems);
    sessionInfo.set(session.id, { applicationFeeAmount, paymentMetadata, paymentDescription, receiptEmail, trialDays, subscriptionMetadata, subscriptionDescription });
    return session;
  }

  function expireSession(session: Stripe.Checkout.Session): Stripe.Checkout.Session {
    if (session.status !== 'open') throw invalid('Only Checkout Sessions with a status in ["open"] can be expired.');
    const account = ownerOf(session.id) ?? null;
    session.status = 'expired';
    session.url = null;
    if (typeof session.payment_intent === 'string') {
      const pi = state.paymentIntents.get(session.payment_intent);
      if (pi && pi.status !== 'succeeded' && pi.status !== 'canceled') {
        pi.status = 'canceled';
        pi.canceled_at = nowSeconds();
        pi.cancellation_reason = 'abandoned';
      }
    }
    emit('checkout.session.expired', session, account);
    return session;
  }

  /** Stripe expires an open session once expires_at has passed. */
  function lapse(session: Stripe.Checkout.Session): void {
    if (session.status === 'open' && session.expires_at <= nowSeconds()) expireSession(session);
  }

  function chargeCard(pi: Stripe.PaymentIntent, account: string | null, card: string, email: string | null): { charge: Stripe.Charge; failure: o.PaymentError | null } {
    const known = CARDS[card]!;
    const paymentMethod = stripeId('pm_1', 22);
    const failure = known.failure ?? null;
    const charge = own(state.charges, o.chargeObject({ paymentIntent: pi, paymentMethod, brand: known.brand, last4: card.slice(-4), email, failure }), account);
    chargeCards.set(charge.id, card);
    pi.latest_charge = charge.id;
    pi.payment_method = paymentMethod;
    if (failure) {
      pi.status = 'requires_payment_method';
      pi.last_payment_error = o.lastPaymentError(failure, charge.id);
      emit('payment_intent.payment_failed', pi, account);
    } else {
      pi.status = 'succeeded';
      pi.amount_received = pi.amount;
      pi.last_payment_error = null;
    }
    return { charge, failure };
  }

  function paySession(session: Stripe.Checkout.Session, payment: { card?: string; email?: string }): PaymentResult {
    lapse(session);
    if (session.status === 'expired') return { ok: false, expired: true, message: 'This payment page has expired' };
    if (session.status !== 'open') return { ok: false, message: 'This Checkout Session is already complete.' };
    const account = ownerOf(session.id) ?? null;
    const info = sessionInfo.get(session.id)!;
    const card = (payment.card ?? '').replace(/[\s-]/g, '');
    const known = CARDS[card];
    if (!known) return { ok: false, message: 'Your card number is invalid.' };
    const email = session.customer_email ?? payment.email ?? (typeof session.customer === 'string' ? (state.customers.get(session.customer)?.email ?? null) : null);
    if (!email && !session.customer) return { ok: false, message: 'Enter your email address.' };

    if (session.mode === 'payment') {
      let pi = typeof session.payment_intent === 'string' ? state.paymentIntents.get(session.payment_intent) : undefined;
      if (!pi) {
        pi = own(
          state.paymentIntents,
          o.paymentIntentObject({
            amount: session.amount_total ?? 0,
            currency: session.currency ?? 'eur',
            applicationFeeAmount: info.applicationFeeAmount,
            metadata: info.paymentMetadata,
            description: info.paymentDescription,
            customer: typeof session.customer === 'string' ? session.customer : null,
            receiptEmail: info.receiptEmail,
          }),
          account,
        );
        session.payment_intent = pi.id;
      }
      const { failure } = chargeCard(pi, account, card, email);
      if (failure) return { ok: false, message: failure.message };
      session.status = 'complete';
      session.payment_status = 'paid';
      session.url = null;
      session.customer_details = o.customerDetails(email ?? '');
      emit('checkout.session.completed', session, account);
      emit('payment_intent.succeeded', pi, account);
    } else {
      if (known.failure) return { ok: false, message: known.failure.message };
      let customerId = typeof session.customer === 'string' ? session.customer : null;
      if (!customerId) {
        customerId = own(state.customers, o.customerObject({ email, name: null, metadata: {} }), account).id;
      }
      const lineItems = state.lineItems.get(session.id) ?? [];
      const subscription = o.subscriptionObject({
        customer: customerId,
        currency: session.currency ?? 'eur',
        items: lineItems.filter((item) => item.price?.recurring).map((item) => ({ price: item.price!, quantity: item.quantity ?? 1 })),
        trialPeriodDays: info.trialDays,
        metadata: info.subscriptionMetadata,
        description: info.subscriptionDescription,
        paymentMethod: stripeId('pm_1', 22),
      });
      own(state.subscriptions, subscription, account);
      session.customer = customerId;
      session.subscription = subscription.id;
      session.status = 'complete';
      session.payment_status = info.trialDays ? 'no_payment_required' : 'paid';
      session.url = null;
      session.customer_details = o.customerDetails(email ?? state.customers.get(customerId)?.email ?? '');
      emit('customer.subscription.created', subscription, account);
      emit('checkout.session.completed', session, account);
    }
    return { ok: true, session, redirectUrl: fillSessionId(session.success_url ?? base, session.id) };
  }

  /* Payments ----------------------------------------------------------------------------------- */

  function confirmIntent(pi: Stripe.PaymentIntent, account: string | null, paymentMethod: string): Stripe.PaymentIntent {
    const card = TEST_PAYMENT_METHODS[paymentMethod];
    if (!card) throw noSuch('PaymentMethod', paymentMethod, 'payment_method', 400);
    const { charge, failure } = chargeCard(pi, account, card, pi.receipt_email);
    if (failure) {
      throw apiError(402, {
        type: 'card_error',
        code: failure.code,
        ...(failure.declineCode ? { decline_code: failure.declineCode } : {}),
        message: failure.message,
        charge: charge.id,
        payment_intent: wire(pi),
      });
    }
    emit('payment_intent.succeeded', pi, account);
    return pi;
  }

  function createRefund(ctx: Ctx): Stripe.Refund {
    const { p, account } = ctx;
    const piId = p.string('payment_intent');
    const chargeId = p.string('charge');
    if (!piId && !chargeId) throw invalid('One of the following params should be provided for this request: payment_intent or charge.', 'payment_intent');
    let charge: Stripe.Charge | undefined;
    if (piId) {
      const pi = find(state.paymentIntents, piId, account, 'payment_intent', 'payment_intent', 400);
      if (pi.status !== 'succeeded' || typeof pi.latest_charge !== 'string') {
        throw invalid(`This PaymentIntent (${piId}) does not have a successful charge to refund.`, 'payment_intent');
      }
      charge = state.charges.get(pi.latest_charge);
    } else {
      charge = find(state.charges, chargeId!, account, 'charge', 'charge', 400);
    }
    if (!charge || charge.status !== 'succeeded') throw invalid('This charge cannot be refunded because it did not succeed.', piId ? 'payment_intent' : 'charge');
    const left = charge.amount - charge.amount_refunded;
    if (left <= 0) throw apiError(400, { code: 'charge_already_refunded', message: `Charge ${charge.id} has already been refunded.` });
    const amount = p.int('amount', 1) ?? left;
    if (amount > left) {
      throw apiError(400, {
        code: 'amount_too_large',
        param: 'amount',
        message: `Refund amount (${formatAmount(amount, charge.currency)}) is greater than unrefunded amount on charge (${formatAmount(left, charge.currency)})`,
      });
    }
    const reason = p.oneOf('reason', ['duplicate', 'fraudulent', 'requested_by_customer'] as const) ?? null;
    const refund = own(state.refunds, o.refundObject({ amount, charge, reason, metadata: createdMetadata(p.metadata()) }), account);
    if (CARDS[chargeCards.get(charge.id) ?? '']?.refund === 'pending') refund.status = 'pending';
    const before = wire(charge);
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded >= charge.amount;
    emit('charge.refunded', charge, account, previousAttributes(before, wire(charge)));
    return refund;
  }

  /* Billing ------------------------------------------------------------------------------------ */

  function cancelSubscription(subscription: Stripe.Subscription, comment: string | null = null): Stripe.Subscription {
    const now = nowSeconds();
    subscription.status = 'canceled';
    subscription.canceled_at = now;
    subscription.ended_at = now;
    subscription.cancel_at_period_end = false;
    subscription.cancellation_details = { comment, feedback: null, feedback_option: null, reason: 'cancellation_requested' };
    emit('customer.subscription.deleted', subscription, ownerOf(subscription.id) ?? null);
    return subscription;
  }

  function updateSubscription(ctx: Ctx, subscription: Stripe.Subscription): Stripe.Subscription {
    const { p, account } = ctx;
    if (subscription.status === 'canceled') throw invalid('A canceled subscription can only update its cancellation_details and metadata.');
    const before = wire(subscription);
    const periodEnd = () => Math.max(...subscription.items.data.map((item) => item.current_period_end));
    const now = nowSeconds();

    for (const line of p.list('items')) {
      const itemId = line.string('id');
      const existing = itemId ? subscription.items.data.find((item) => item.id === itemId) : undefined;
      if (itemId && !existing) throw noSuch('subscription_item', itemId, line.name('id'), 400);
      if (existing && line.bool('deleted')) {
        subscription.items.data = subscription.items.data.filter((item) => item !== existing);
        continue;
      }
      let price: Stripe.Price | undefined;
      const priceId = line.string('price');
      if (priceId) price = find(state.prices, priceId, account, 'price', line.name('price'), 400);
      else if (line.has('price_data')) {
        const data = line.object('price_data');
        if (!data.has('product')) throw missing(data.name('product'));
        price = priceFromData(data, account, 'recurring');
      }
      if (price && price.currency !== subscription.currency) throw invalid(`The price's currency (${price.currency}) must match the subscription's (${subscription.currency}).`, line.name('price'));
      const quantity = line.int('quantity', 0);
      if (existing) {
        if (price) {
          existing.price = price;
          existing.plan = o.planOfPrice(price);
        }
        if (quantity !== undefined) existing.quantity = quantity;
      } else {
        if (!price) throw invalid('You must specify either `price` or `price_data` for a new subscription item.', line.name('price'));
        const start = subscription.items.data[0]?.current_period_start ?? now;
        const end = subscription.items.data[0]?.current_period_end ?? o.periodEnd(now, price.recurring!.interval, price.recurring!.interval_count);
        subscription.items.data.push(o.subscriptionItemObject({ subscription: subscription.id, price, quantity: quantity ?? 1, periodStart: start, periodEnd: end }));
      }
    }
    if (p.string('trial_end') === 'now' && subscription.status === 'trialing') {
      subscription.status = 'active';
      subscription.trial_end = now;
      subscription.billing_cycle_anchor = now;
      for (const item of subscription.items.data) {
        const recurring = item.price.recurring ?? { interval: 'month', interval_count: 1 };
        item.current_period_start = now;
        item.current_period_end = o.periodEnd(now, recurring.interval, recurring.interval_count);
      }
    }
    const cancelAtPeriodEnd = p.bool('cancel_at_period_end');
    if (cancelAtPeriodEnd !== undefined) {
      subscription.cancel_at_period_end = cancelAtPeriodEnd;
      subscription.cancel_at = cancelAtPeriodEnd ? periodEnd() : null;
      subscription.canceled_at = cancelAtPeriodEnd ? now : null;
    }
    subscription.metadata = mergeMetadata(subscription.metadata, p.metadata());
    if (p.has('description')) subscription.description = p.string('description') ?? null;
    emit('customer.subscription.updated', subscription, account, previousAttributes(before, wire(subscription)));
    return subscription;
  }

  /* Expansion ---------------------------------------------------------------------------------- */

  const lookupMaps: Map<string, object>[] = [
    state.checkoutSessions,
    state.paymentIntents,
    state.charges,
    state.refunds,
    state.customers,
    state.subscriptions,
    state.prices,
    state.products,
    state.accounts,
    state.events,
  ];
  function lookup(id: string, account: string | null): object | undefined {
    if (ownerOf(id) !== account) return undefined;
    for (const map of lookupMaps) {
      const found = map.get(id);
      if (found) return found;
    }
    return undefined;
  }
  function expandInto(node: unknown, parts: string[], account: string | null): void {
    if (!parts.length || !isRecord(node)) return;
    const [head, ...rest] = parts as [string, ...string[]];
    if (head === 'data' && Array.isArray(node.data)) {
      for (const item of node.data) expandInto(item, rest, account);
      return;
    }
    if (head === 'line_items' && node.object === 'checkout.session' && typeof node.id === 'string') {
      node.line_items = wire({ object: 'list', data: state.lineItems.get(node.id) ?? [], has_more: false, url: `/v1/checkout/sessions/${node.id}/line_items` });
    } else if (typeof node[head] === 'string') {
      const found = lookup(node[head], account);
      if (found) node[head] = wire(found);
    }
    expandInto(node[head], rest, account);
  }
  function expanded(object: object, ctx: Ctx): object {
    const paths = ctx.p.strings('expand');
    if (!paths.length) return object;
    const copy = wire(object);
    for (const path of paths) expandInto(copy, path.split('.'), ctx.account);
    return copy;
  }

  function list<T extends { id: string; created?: number }>(url: string, items: T[], ctx: Ctx): Stripe.ApiList<T> {
    const limit = ctx.p.int('limit', 1) ?? 10;
    const sorted = [...items].sort((a, b) => (b.created ?? 0) - (a.created ?? 0));
    return { object: 'list', data: sorted.slice(0, limit), has_more: sorted.length > limit, url };
  }
  function ownedBy<T extends { id: string }>(map: Map<string, T>, account: string | null): T[] {
    return [...map.values()].filter((value) => ownerOf(value.id) === account);
  }

  /* Routes ------------------------------------------------------------------------------------- */

  const routes: [string, RegExp, Handler][] = [
    // Connect
    [
      'POST',
      /^\/v1\/accounts$/,
      ({ p }) => {
        const type = p.oneOf('type', ['standard', 'express', 'custom'] as const) ?? (p.has('controller') ? 'standard' : undefined);
        if (!type) throw missing('type');
        const country = (p.string('country') ?? 'US').toUpperCase();
        if (!/^[A-Z]{2}$/.test(country)) throw invalid(`Country '${country}' is unknown.`, 'country');
        const profile = p.object('business_profile');
        const account = o.accountObject({
          type,
          country,
          email: p.string('email') ?? null,
          metadata: createdMetadata(p.metadata()),
          businessName: profile.string('name') ?? null,
          businessUrl: profile.string('url') ?? null,
        });
        if (p.string('default_currency')) account.default_currency = p.currency('default_currency');
        return own(state.accounts, account, null);
      },
    ],
    ['GET', /^\/v1\/account$/, ({ account, apiKey }) => (account ? accessibleAccount(account, apiKey) : platform)],
    ['GET', /^\/v1\/accounts\/([^/]+)$/, ({ args, apiKey }) => accessibleAccount(args[0]!, apiKey)],
    [
      'POST',
      /^\/v1\/accounts\/([^/]+)$/,
      ({ p, args, apiKey }) => {
        const account = accessibleAccount(args[0]!, apiKey);
        const before = wire(account);
        if (p.has('email')) account.email = p.string('email') ?? null;
        account.metadata = mergeMetadata(account.metadata ?? {}, p.metadata());
        const profile = p.object('business_profile');
        if (account.business_profile && profile.has('name')) account.business_profile.name = profile.string('name') ?? null;
        if (account.business_profile && profile.has('url')) account.business_profile.url = profile.string('url') ?? null;
        emit('account.updated', account, account.id, previousAttributes(before, wire(account)));
        return account;
      },
    ],
    [
      'DELETE',
      /^\/v1\/accounts\/([^/]+)$/,
      ({ args, apiKey }) => {
        const account = accessibleAccount(args[0]!, apiKey);
        state.accounts.delete(account.id);
        deletedAccounts.add(account.id);
        return o.deletedAccountObject(account.id);
      },
    ],
    [
      'POST',
      /^\/v1\/account_links$/,
      ({ p, apiKey }) => {
        const accountId = p.required('account');
        if (!state.accounts.has(accountId)) accessibleAccount(accountId, apiKey);
        const refreshUrl = p.url('refresh_url', true)!;
        const returnUrl = p.url('return_url', true)!;
        const type = p.oneOf('type', ['account_onboarding', 'account_update'] as const);
        if (!type) throw missing('type');
        const query = new URLSearchParams({ return: returnUrl, refresh: refreshUrl });
        return o.accountLinkObject(`${base}/connect/onboarding/${accountId}?${query}`);
      },
    ],
    // Checkout
    ['POST', /^\/v1\/checkout\/sessions$/, (ctx) => createCheckoutSession(ctx)],
    [
      'GET',
      /^\/v1\/checkout\/sessions$/,
      (ctx) => {
        const { p } = ctx;
        const filters: [string, (s: Stripe.Checkout.Session) => unknown][] = [
          ['payment_intent', (s) => s.payment_intent],
          ['subscription', (s) => s.subscription],
          ['customer', (s) => s.customer],
          ['status', (s) => s.status],
          ['client_reference_id', (s) => s.client_reference_id],
        ];
        const sessions = ownedBy(state.checkoutSessions, ctx.account).filter((s) => filters.every(([key, get]) => !p.has(key) || get(s) === p.string(key)));
        return list('/v1/checkout/sessions', sessions, ctx);
      },
    ],
    [
      'GET',
      /^\/v1\/checkout\/sessions\/([^/]+)$/,
      (ctx) => {
        const session = find(state.checkoutSessions, ctx.args[0]!, ctx.account, 'checkout.session', 'session');
        lapse(session);
        return expanded(session, ctx);
      },
    ],
    [
      'GET',
      /^\/v1\/checkout\/sessions\/([^/]+)\/line_items$/,
      (ctx) => {
        const session = find(state.checkoutSessions, ctx.args[0]!, ctx.account, 'checkout.session', 'session');
        const items = state.lineItems.get(session.id) ?? [];
        return { object: 'list', data: items.slice(0, ctx.p.int('limit', 1) ?? 10), has_more: items.length > (ctx.p.int('limit', 1) ?? 10), url: `/v1/checkout/sessions/${session.id}/line_items` };
      },
    ],
    ['POST', /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/, (ctx) => expireSession(find(state.checkoutSessions, ctx.args[0]!, ctx.account, 'checkout.session', 'session'))],
    // Payments
    [
      'POST',
      /^\/v1\/payment_intents$/,
      ({ p, account }) => {
        const amount = p.int('amount', 1);
        if (amount === undefined) throw missing('amount');
        const currency = p.currency('currency');
        const applicationFeeAmount = p.int('application_fee_amount', 0) ?? null;
        if (applicationFeeAmount !== null && !account) throw invalid('Can only apply an application_fee_amount when the PaymentIntent is attempting a direct payment (using an OAuth key or Stripe-Account header) or destination payment (using `transfer_data[destination]`).', 'application_fee_amount');
        const customer = p.string('customer') ?? null;
        if (customer) find(state.customers, customer, account, 'customer', 'customer', 400);
        const pi = own(
          state.paymentIntents,
          o.paymentIntentObject({ amount, currency, applicationFeeAmount, metadata: createdMetadata(p.metadata()), description: p.string('description') ?? null, customer, receiptEmail: p.string('receipt_email') ?? null }),
          account,
        );
        const paymentMethod = p.string('payment_method');
        if (paymentMethod) pi.status = 'requires_confirmation';
        if (p.bool('confirm')) {
          if (!paymentMethod) throw missing('payment_method');
          return confirmIntent(pi, account, paymentMethod);
        }
        return pi;
      },
    ],
    ['GET', /^\/v1\/payment_intents\/([^/]+)$/, (ctx) => expanded(find(state.paymentIntents, ctx.args[0]!, ctx.account, 'payment_intent', 'intent'), ctx)],
    [
      'POST',
      /^\/v1\/payment_intents\/([^/]+)\/confirm$/,
      ({ p, args, account }) => {
        const pi = find(state.paymentIntents, args[0]!, account, 'payment_intent', 'intent');
        if (pi.status === 'succeeded' || pi.status === 'canceled') throw invalid(`This PaymentIntent's status is ${pi.status}, which does not allow it to be confirmed.`, undefined, 'payment_intent_unexpected_state');
        const paymentMethod = p.string('payment_method') ?? (typeof pi.payment_method === 'string' ? pi.payment_method : undefined);
        if (!paymentMethod) throw missing('payment_method');
        return confirmIntent(pi, account, paymentMethod);
      },
    ],
    [
      'POST',
      /^\/v1\/payment_intents\/([^/]+)\/cancel$/,
      ({ p, args, account }) => {
        const pi = find(state.paymentIntents, args[0]!, account, 'payment_intent', 'intent');
        if (pi.status === 'succeeded' || pi.status === 'canceled') throw invalid(`You cannot cancel this PaymentIntent because it has a status of ${pi.status}.`, undefined, 'payment_intent_unexpected_state');
        pi.status = 'canceled';
        pi.canceled_at = nowSeconds();
        pi.cancellation_reason = p.oneOf('cancellation_reason', ['abandoned', 'duplicate', 'fraudulent', 'requested_by_customer'] as const) ?? null;
        emit('payment_intent.canceled', pi, account);
        return pi;
      },
    ],
    ['GET', /^\/v1\/charges\/([^/]+)$/, (ctx) => expanded(find(state.charges, ctx.args[0]!, ctx.account, 'charge', 'charge'), ctx)],
    ['POST', /^\/v1\/refunds$/, (ctx) => createRefund(ctx)],
    ['GET', /^\/v1\/refunds\/([^/]+)$/, (ctx) => expanded(find(state.refunds, ctx.args[0]!, ctx.account, 'refund', 'refund'), ctx)],
    [
      'GET',
      /^\/v1\/refunds$/,
      (ctx) => {
        const { p } = ctx;
        const refunds = ownedBy(state.refunds, ctx.account).filter((r) => (!p.has('payment_intent') || r.payment_intent === p.string('payment_intent')) && (!p.has('charge') || r.charge === p.string('charge')));
        return list('/v1/refunds', refunds, ctx);
      },
    ],
    // Customers, products and prices
    [
      'POST',
      /^\/v1\/customers$/,
      ({ p, account }) =>
        own(
          state.customers,
          o.customerObject({ email: p.string('email') ?? null, name: p.string('name') ?? null, description: p.string('description') ?? null, phone: p.string('phone') ?? null, metadata: createdMetadata(p.metadata()) }),
          account,
        ),
    ],
    [
      'GET',
      /^\/v1\/customers$/,
      (ctx) => {
        const email = ctx.p.string('email');
        return list('/v1/customers', ownedBy(state.customers, ctx.account).filter((c) => !email || c.email === email), ctx);
      },
    ],
    ['GET', /^\/v1\/customers\/([^/]+)$/, (ctx) => expanded(find(state.customers, ctx.args[0]!, ctx.account, 'customer', 'id'), ctx)],
    [
      'POST',
      /^\/v1\/customers\/([^/]+)$/,
      ({ p, args, account }) => {
        const customer = find(state.customers, args[0]!, account, 'customer', 'id');
        const before = wire(customer);
        if (p.has('email')) customer.email = p.string('email') ?? null;
        if (p.has('name')) customer.name = p.string('name') ?? null;
        if (p.has('description')) customer.description = p.string('description') ?? null;
        if (p.has('phone')) customer.phone = p.string('phone') ?? null;
        customer.metadata = mergeMetadata(customer.metadata, p.metadata());
        emit('customer.updated', customer, account, previousAttributes(before, wire(customer)));
        return customer;
      },
    ],
    [
      'DELETE',
      /^\/v1\/customers\/([^/]+)$/,
      ({ args, account }) => {
        const customer = find(state.customers, args[0]!, account, 'customer', 'id');
        state.customers.delete(customer.id);
        for (const sub of ownedBy(state.subscriptions, account)) if (sub.customer === customer.id && sub.status !== 'canceled') cancelSubscription(sub);
        emit('customer.deleted', customer, account);
        return o.deletedCustomerObject(customer.id);
      },
    ],
    [
      'POST',
      /^\/v1\/products$/,
      ({ p, account }) => {
        const id = p.string('id');
        if (id && state.products.has(id)) throw invalid(`Product already exists.`, 'id', 'resource_already_exists');
        return own(state.products, o.productObject({ ...(id ? { id } : {}), name: p.required('name'), description: p.string('description') ?? null, metadata: createdMetadata(p.metadata()) }), account);
      },
    ],
    ['GET', /^\/v1\/products\/([^/]+)$/, (ctx) => find(state.products, ctx.args[0]!, ctx.account, 'product', 'id')],
    [
      'POST',
      /^\/v1\/prices$/,
      ({ p, account }) => {
        const lookupKey = p.string('lookup_key') ?? null;
        const holder = lookupKey ? ownedBy(state.prices, account).find((price) => price.lookup_key === lookupKey) : undefined;
        if (holder && !p.bool('transfer_lookup_key')) throw invalid(`A price (\`${holder.id}\`) already uses that lookup key.`, 'lookup_key');
        const price = priceFromData(p, account, 'either');
        price.active = p.bool('active') ?? true;
        price.lookup_key = lookupKey;
        price.nickname = p.string('nickname') ?? null;
        price.metadata = createdMetadata(p.metadata());
        const product = state.products.get(typeof price.product === 'string' ? price.product : price.product.id);
        if (product && !p.has('product')) product.active = true;
        if (holder) holder.lookup_key = null;
        return price;
      },
    ],
    ['GET', /^\/v1\/prices\/([^/]+)$/, (ctx) => expanded(find(state.prices, ctx.args[0]!, ctx.account, 'price', 'price'), ctx)],
    [
      'GET',
      /^\/v1\/prices$/,
      (ctx) => {
        const { p } = ctx;
        const keys = p.strings('lookup_keys');
        const prices = ownedBy(state.prices, ctx.account).filter(
          (price) =>
            (!keys.length || (price.lookup_key !== null && keys.includes(price.lookup_key))) &&
            (!p.has('product') || price.product === p.string('product')) &&
            (p.bool('active') === undefined || price.active === p.bool('active')) &&
            (!p.has('type') || price.type === p.string('type')),
        );
        return expanded(list('/v1/prices', prices, ctx), ctx);
      },
    ],
    // Subscriptions and the customer portal
    ['GET', /^\/v1\/subscriptions\/([^/]+)$/, (ctx) => expanded(find(state.subscriptions, ctx.args[0]!, ctx.account, 'subscription', 'id'), ctx)],
    [
      'GET',
      /^\/v1\/subscriptions$/,
      (ctx) => {
        const { p } = ctx;
        const status = p.string('status');
        const subscriptions = ownedBy(state.subscriptions, ctx.account).filter(
          (sub) => (!p.has('customer') || sub.customer === p.string('customer')) && (status === 'all' ? true : status ? sub.status === status : sub.status !== 'canceled'),
        );
        return expanded(list('/v1/subscriptions', subscriptions, ctx), ctx);
      },
    ],
    ['POST', /^\/v1\/subscriptions\/([^/]+)$/, (ctx) => updateSubscription(ctx, find(state.subscriptions, ctx.args[0]!, ctx.account, 'subscription', 'id'))],
    [
      'DELETE',
      /^\/v1\/subscriptions\/([^/]+)$/,
      (ctx) => {
        const subscription = find(state.subscriptions, ctx.args[0]!, ctx.account, 'subscription', 'id');
        if (subscription.status === 'canceled') throw invalid('This subscription has already been canceled.');
        return cancelSubscription(subscription, ctx.p.object('cancellation_details').string('comment') ?? null);
      },
    ],
    [
      'POST',
      /^\/v1\/billing_portal\/sessions$/,
      ({ p, account }) => {
        const customer = find(state.customers, p.required('customer'), account, 'customer', 'customer', 400);
        const session = o.portalSessionObject({
          customer: customer.id,
          returnUrl: p.url('return_url', false) ?? null,
          url: (id) => `${base}/portal/${id}`,
          locale: (p.string('locale') as Stripe.BillingPortal.Session.Locale | undefined) ?? null,
        });
        return own(state.portalSessions, session, account);
      },
    ],
    // Events
    ['GET', /^\/v1\/events\/([^/]+)$/, (ctx) => find(state.events, ctx.args[0]!, ctx.account, 'event', 'id')],
    [
      'GET',
      /^\/v1\/events$/,
      (ctx) => {
        const type = ctx.p.string('type');
        return list('/v1/events', ownedBy(state.events, ctx.account).filter((e) => !type || e.type === type || (type.endsWith('*') && e.type.startsWith(type.slice(0, -1)))), ctx);
      },
    ],
    // Connect OAuth (the SDK sends it to the same host as the API)
    [
      'POST',
      /^\/oauth\/token$/,
      ({ p }) => {
        const grantType = p.string('grant_type');
        if (grantType === 'authorization_code') {
          const code = p.string('code');
          if (!code) throw oauthError(400, 'invalid_request', 'No authorization code provided');
          const grant = oauthCodes.get(code);
          if (!grant) throw oauthError(400, 'invalid_grant', `Authorization code does not exist: ${code}`);
          if (grant.used) throw oauthError(400, 'invalid_grant', `This authorization code has already been used. All tokens issued with this code have been revoked.`);
          grant.used = true;
          deauthorized.delete(grant.account);
          const accessToken = stripeId('sk_test_', 24);
          const refreshToken = stripeId('rt', 32);
          accessTokens.set(accessToken, grant.account);
          refreshTokens.set(refreshToken, grant.account);
          return o.oauthTokenObject({ account: grant.account, accessToken, refreshToken, scope: grant.scope });
        }
        if (grantType === 'refresh_token') {
          const token = p.string('refresh_token') ?? '';
          const account = refreshTokens.get(token);
          if (!account || deauthorized.has(account)) throw oauthError(400, 'invalid_grant', `Invalid refresh token: ${token}`);
          const accessToken = stripeId('sk_test_', 24);
          accessTokens.set(accessToken, account);
          return o.oauthTokenObject({ account, accessToken, refreshToken: token, scope: 'read_write' });
        }
        throw oauthError(400, 'unsupported_grant_type', `Unsupported grant type: ${grantType ?? ''}`);
      },
    ],
    [
      'POST',
      /^\/oauth\/deauthorize$/,
      ({ p }) => {
        const clientId = p.string('client_id');
        if (!clientId) throw oauthError(400, 'invalid_request', 'No client_id provided');
        const accountId = p.string('stripe_user_id');
        if (!accountId) throw oauthError(400, 'invalid_request', 'No stripe_user_id provided');
        if (!state.accounts.has(accountId) || deauthorized.has(accountId)) {
          throw oauthError(401, 'invalid_client', `This application is not connected to stripe account ${accountId}, or that account does not exist.`);
        }
        deauthorized.add(accountId);
        emit('account.application.deauthorized', o.applicationObject(clientId), accountId);
        const result: Stripe.OAuthDeauthorization = { stripe_user_id: accountId };
        return result;
      },
    ],
  ];

  /* HTTP --------------------------------------------------------------------------------------- */

  function readBody(req: IncomingMessage): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => resolve(Buffer.concat(chunks)));
      req.on('error', reject);
    });
  }

  function header(req: IncomingMessage, name: string): string | null {
    const value = req.headers[name];
    return (Array.isArray(value) ? value[0] : value) ?? null;
  }

  function apiKeyOf(req: IncomingMessage): string | null {
    const authorization = header(req, 'authorization');
    if (!authorization) return null;
    const bearer = /^Bearer\s+(.+)$/i.exec(authorization);
    if (bearer) return bearer[1]!.trim();
    const basic = /^Basic\s+(.+)$/i.exec(authorization);
    if (basic) return Buffer.from(basic[1]!, 'base64').toString('utf8').split(':')[0] ?? '';
    return '';
  }

  function html(res: ServerResponse, status: number, body: string): void {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(body);
  }
  function redirect(res: ServerResponse, location: string): void {
    res.writeHead(303, { location, 'cache-control': 'no-store' });
    res.end();
  }

  /** The hosted pages a browser visits. Their actions deliver their webhooks before redirecting. */
  async function page(req: IncomingMessage, res: ServerResponse, url: URL, form: Params): Promise<number | null> {
    const method = req.method ?? 'GET';
    let match: RegExpExecArray | null;
    const show = (status: number, body: string): number => {
      html(res, status, body);
      return status;
    };
    const go = (location: string): number => {
      redirect(res, location);
      return 303;
    };

    if ((match = /^\/connect\/onboarding\/([^/]+)$/.exec(url.pathname))) {
      const account = state.accounts.get(match[1]!);
      const returnUrl = url.searchParams.get('return') ?? base;
      if (!account) return show(404, pages.messagePage('Link expired', 'This onboarding link is no longer valid.'));
      if (method === 'GET') return show(200, pages.onboardingPage({ account, returnUrl }));
      if (method === 'POST') {
        completeOnboarding(account.id, { businessName: form.string('business_name'), businessUrl: form.string('business_url') });
        await deliverOwn(takeOutbox());
        return go(returnUrl);
      }
    }

    if ((match = /^\/pay\/([^/]+)$/.exec(url.pathname))) {
      const session = state.checkoutSessions.get(match[1]!);
      if (!session) return show(404, pages.messagePage('Not found', 'This payment page does not exist.'));
      const account = ownerOf(session.id) ?? null;
      const merchant = account ? (state.accounts.get(account)?.business_profile?.name ?? state.accounts.get(account)?.email ?? 'Test merchant') : (platform.business_profile?.name ?? 'Test merchant');
      const lineItems = state.lineItems.get(session.id) ?? [];
      const info = sessionInfo.get(session.id);
      const askEmail = !session.customer_email && !session.customer;
      lapse(session);
      const lapsed = takeOutbox();
      if (lapsed.length) await deliverOwn(lapsed);
      if (session.status === 'expired') return show(410, pages.messagePage('Expired', 'This payment page has expired', session.cancel_url ? { href: session.cancel_url, text: 'Back' } : undefined));
      if (session.status === 'complete') {
        return show(200, pages.messagePage('Paid', 'This payment is complete.', session.success_url ? { href: fillSessionId(session.success_url, session.id), text: 'Continue' } : undefined));
      }
      if (method === 'GET') return show(200, pages.paymentPage({ session, lineItems, merchant, askEmail, trialDays: info?.trialDays ?? null }));
      if (method === 'POST') {
        const card = form.string('card_number') ?? '';
        const email = form.string('email');
        const result = paySession(session, { card, ...(email ? { email } : {}) });
        await deliverOwn(takeOutbox());
        if (result.ok) return go(result.redirectUrl);
        if (result.expired) return show(410, pages.messagePage('Expired', 'This payment page has expired'));
        const status = card.replace(/[\s-]/g, '') in CARDS ? 402 : 400;
        return show(status, pages.paymentPage({ session, lineItems, merchant, askEmail, trialDays: info?.trialDays ?? null, error: result.message, ...(email ? { email } : {}) }));
      }
    }

    if ((match = /^\/portal\/([^/]+)$/.exec(url.pathname))) {
      const portal = state.portalSessions.get(match[1]!);
      const customer = portal ? state.customers.get(portal.customer) : undefined;
      if (!portal || !customer) return show(404, pages.messagePage('Not found', 'This link is no longer valid.'));
      const account = ownerOf(portal.id) ?? null;
      const subscriptions = ownedBy(state.subscriptions, account).filter((sub) => sub.customer === customer.id && sub.status !== 'canceled');
      const withProducts = subscriptions.map((sub) => {
        const copy = wire(sub);
        for (const item of copy.items.data) {
          const product = state.products.get(typeof item.price.product === 'string' ? item.price.product : item.price.product.id);
          if (product) item.price.product = product;
        }
        return copy;
      });
      if (method === 'GET') return show(200, pages.portalPage({ customer, subscriptions: withProducts, returnUrl: portal.return_url }));
      if (method === 'POST') {
        const subscription = subscriptions.find((sub) => sub.id === form.string('subscription'));
        if (!subscription) return show(400, pages.messagePage('Not found', 'This plan is not yours to cancel.'));
        cancelSubscription(subscription);
        await deliverOwn(takeOutbox());
        if (portal.return_url) return go(portal.return_url);
        return show(200, pages.messagePage('Canceled', 'Your plan has been canceled.'));
      }
    }

    if (/^(\/express)?\/oauth\/authorize$/.test(url.pathname)) {
      const clientId = url.searchParams.get('client_id');
      const redirectUri = url.searchParams.get('redirect_uri');
      if (!clientId || !redirectUri) return show(400, pages.messagePage('Invalid request', 'client_id and redirect_uri are required.'));
      if (method === 'GET') return show(200, pages.oauthPage({ clientId }));
      if (method === 'POST') {
        const target = new URL(redirectUri);
        const stateParam = url.searchParams.get('state');
        if (form.string('decision') === 'deny') {
          target.searchParams.set('error', 'access_denied');
          target.searchParams.set('error_description', 'The user denied your request');
        } else {
          const express = url.pathname.startsWith('/express');
          const account = own(state.accounts, o.accountObject({ type: express ? 'express' : 'standard', country: 'US', email: form.string('email') ?? null, metadata: {}, complete: true }), null);
          target.searchParams.set('code', issueOAuthCode(account.id));
          target.searchParams.set('scope', url.searchParams.get('scope') ?? 'read_write');
        }
        if (stateParam) target.searchParams.set('state', stateParam);
        return go(target.toString());
      }
    }
    return null;
  }

  function unrecognized(method: string, path: string): ApiError {
    return apiError(404, { message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.` });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://fake.stripe');
    const raw = (await readBody(req)).toString('utf8');
    const body = raw && !(header(req, 'content-type') ?? '').includes('json') ? (qs.parse(raw, QS_OPTIONS) as Raw) : raw ? (JSON.parse(raw) as Raw) : {};
    const query = qs.parse(url.search.slice(1), QS_OPTIONS) as Raw;
    const apiKey = apiKeyOf(req);
    const record: RecordedRequest = {
      method,
      path: url.pathname,
      query,
      account: header(req, 'stripe-account'),
      idempotencyKey: header(req, 'idempotency-key'),
      apiKey,
      stripeVersion: header(req, 'stripe-version'),
      body,
      status: 0,
      replayed: false,
    };
    state.requests.push(record);

    const pageStatus = await page(req, res, url, new Params(body));
    if (pageStatus !== null) {
      record.status = pageStatus;
      return;
    }

    const requestId = stripeId('req', 14);
    const respond = (status: number, payload: unknown, extra: Record<string, string> = {}) => {
      record.status = status;
      const headers: Record<string, string> = { 'content-type': 'application/json', 'request-id': requestId, 'stripe-version': record.stripeVersion ?? Stripe.API_VERSION, ...extra };
      if (record.idempotencyKey) headers['idempotency-key'] = record.idempotencyKey;
      if (record.account) headers['stripe-account'] = record.account;
      res.writeHead(status, headers);
      res.end(JSON.stringify(payload, null, 2));
    };

    const isApi = url.pathname.startsWith('/v1/') || url.pathname === '/v1' || url.pathname.startsWith('/oauth/');
    try {
      if (isApi) {
        if (apiKey === null) {
          throw apiError(401, {
            message:
              "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
          });
        }
        if (!/^sk_(test|live)_\S+$/.test(apiKey)) throw apiError(401, { message: `Invalid API Key provided: ${redactKey(apiKey)}` });
      }
      let handler: Handler | undefined;
      let args: string[] = [];
      for (const [routeMethod, pattern, routeHandler] of routes) {
        const match = routeMethod === method ? pattern.exec(url.pathname) : null;
        if (match) {
          handler = routeHandler;
          args = match.slice(1).map(decodeURIComponent);
          break;
        }
      }
      if (!handler || !isApi || apiKey === null) throw unrecognized(method, url.pathname);

      let account = record.account;
      if (!account && accessTokens.has(apiKey)) account = accessTokens.get(apiKey)!;
      if (account) accessibleAccount(account, apiKey);

      const scope = `${account ?? 'platform'} ${record.idempotencyKey}`;
      const endpoint = `${method} ${url.pathname}`;
      const fingerprint = canonical(body);
      if (method === 'POST' && record.idempotencyKey) {
        const saved = idempotency.get(scope);
        if (saved) {
          if (saved.endpoint !== endpoint) {
            throw apiError(
              400,
              {
                type: 'idempotency_error',
                message: `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${saved.endpoint}' vs '${endpoint}'). Try using a key other than '${record.idempotencyKey}' if you meant to execute a different request.`,
              },
              false,
            );
          }
          if (saved.fingerprint !== fingerprint) {
            throw apiError(
              400,
              {
                type: 'idempotency_error',
                message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${record.idempotencyKey}' if you meant to execute a different request.`,
              },
              false,
            );
          }
          record.replayed = true;
          respond(saved.status, saved.body, { 'idempotent-replayed': 'true', 'original-request': saved.requestId });
          return;
        }
      }

      const save = (status: number, payload: unknown) => {
        if (method === 'POST' && record.idempotencyKey) idempotency.set(scope, { endpoint, fingerprint, status, body: payload, requestId });
      };
      const ctx: Ctx = { p: new Params({ ...query, ...body }), account, args, apiKey, requestId, idempotencyKey: record.idempotencyKey };
      try {
        const result = wire(handler(ctx));
        save(200, result);
        respond(200, result);
      } catch (error) {
        if (error instanceof ApiError && error.saveIdempotent) save(error.status, error.payload);
        throw error;
      }
    } catch (error) {
      if (error instanceof ApiError) respond(error.status, error.payload);
      else {
        console.error('fake Stripe:', error);
        respond(500, { error: { type: 'api_error', message: `fake Stripe failed: ${error instanceof Error ? error.message : String(error)}` } });
      }
    }
    // Like Stripe, events go out after the answer (a declined confirmation still sends payment_intent.payment_failed).
    const events = takeOutbox();
    if (events.length) void deliverOwn(events);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error('fake Stripe:', error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: 'fake Stripe failed' } }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  base = (options.publicUrl ?? url).replace(/\/$/, '');

  async function settled(): Promise<void> {
    while (pending.size) await Promise.allSettled([...pending]);
  }

  return {
    url,
    port,
    publicUrl: base,
    sdkOptions: { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0, telemetry: false },
    state,
    get events() {
      return [...state.events.values()];
    },
    get webhookUrl() {
      return webhookUrl;
    },
    get webhookSecret() {
      return webhookSecret;
    },
    setWebhook(nextUrl, secret) {
      webhookUrl = nextUrl;
      if (secret) webhookSecret = secret;
    },
    async send(type, object, sendOptions = {}) {
      if (!webhookUrl) throw new Error('fake Stripe: no webhook URL set (setWebhook(url, secret) or the webhookUrl option)');
      const event = o.eventObject({
        type,
        object: wire(object),
        account: sendOptions.account ?? null,
        ...(sendOptions.id ? { id: sendOptions.id } : {}),
        ...(sendOptions.previousAttributes ? { previousAttributes: sendOptions.previousAttributes } : {}),
      });
      state.events.set(event.id, event);
      state.owners.set(event.id, sendOptions.account ?? null);
      return deliverCopies(event, sendOptions.duplicate ?? 1);
    },
    async resend(eventId, resendOptions = {}) {
      const event = state.events.get(eventId);
      if (!event) throw new Error(`fake Stripe: no event ${eventId}`);
      if (!webhookUrl) throw new Error('fake Stripe: no webhook URL set');
      return deliverCopies(event, resendOptions.duplicate ?? 1);
    },
    pauseWebhooks() {
      paused = true;
    },
    async resumeWebhooks() {
      paused = false;
      return deliverOwn(held.splice(0));
    },
    settled,
    async completeOnboarding(accountId, details) {
      const account = completeOnboarding(accountId, details);
      await deliverOwn(takeOutbox());
      return account;
    },
    async payCheckoutSession(sessionId, payment = { card: '4242424242424242' }) {
      const session = state.checkoutSessions.get(sessionId);
      if (!session) throw new Error(`fake Stripe: no Checkout Session ${sessionId}`);
      const result = paySession(session, { card: '4242424242424242', ...payment });
      await deliverOwn(takeOutbox());
      return result;
    },
    async expireCheckoutSession(sessionId) {
      const session = state.checkoutSessions.get(sessionId);
      if (!session) throw new Error(`fake Stripe: no Checkout Session ${sessionId}`);
      expireSession(session);
      await deliverOwn(takeOutbox());
      return session;
    },
    async finishRefund(refundId, outcome) {
      const refund = state.refunds.get(refundId);
      if (!refund) throw new Error(`fake Stripe: no refund ${refundId}`);
      if (refund.status !== 'pending' && !(refund.status === 'succeeded' && outcome === 'failed')) throw new Error(`fake Stripe: refund ${refundId} is ${refund.status}`);
      const account = ownerOf(refund.id) ?? null;
      const before = wire(refund);
      refund.status = outcome;
      if (outcome === 'failed') {
        refund.failure_reason = 'expired_or_canceled_card';
        const charge = state.charges.get(refund.charge as string)!;
        charge.amount_refunded -= refund.amount;
        charge.refunded = charge.amount_refunded >= charge.amount;
      }
      const previous = previousAttributes(before, wire(refund));
      emit('refund.updated', refund, account, previous);
      emit('charge.refund.updated', refund, account, previous);
      if (outcome === 'failed') emit('refund.failed', refund, account, previous);
      await deliverOwn(takeOutbox());
      return refund;
    },
    issueOAuthCode,
    async close() {
      await settled();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
