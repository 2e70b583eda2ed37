import { createHash } from 'node:crypto';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requestHost } from '../../lib/host';
import { ThrottledError } from '../../lib/throttle';
import { challengeSecret, requireSolved, type ChallengeSettings } from '../../lib/challenge';

/**
 * What keeps one script from taking a store's seats: per client address and per store, limits on
 * new carts, lines (seats held) and orders in a window (429 with Retry-After), counted by
 * @fastify/rate-limit in a store every process shares (plugins/rate-limit.ts); past a threshold of
 * an address's calls, and always for a pay-on-site order, a solved proof-of-work (challenge.ts).
 * The seats a cart and an address hold at once are capped where they are held (cart.ts).
 */
export type GuardedCall = 'cart' | 'line' | 'order' | 'pay' | 'waitlist' | 'challenge';

declare module 'fastify' {
  interface FastifyInstance {
    /** The preHandler that guards a public web store call of this kind (limits-routes.ts). */
    storeGuard: (kind: GuardedCall) => (request: FastifyRequest) => Promise<void>;
    /** The settings the web store's challenges are made and checked with. */
    storeChallenge: ChallengeSettings;
  }
}

/** A client's address as a key: a hash of its IPv4 address or its IPv6 /64 (never the address itself). */
export const clientHash = (request: FastifyRequest) => createHash('sha256').update(normalizeIP(request.ip, 64)).digest('base64url').slice(0, 22);

/** Decorates the app with `storeGuard` and `storeChallenge`; needs @fastify/rate-limit registered. */
export function registerStoreGuards(app: FastifyInstance) {
  const c = app.config;
  const timeWindow = c.STORE_RATE_WINDOW_SECONDS * 1000;
  const perKind: Record<GuardedCall, { address: number; store: number; challengeAfter: number | null }> = {
    cart: { address: c.STORE_CARTS_PER_ADDRESS, store: c.STORE_CARTS_PER_STORE, challengeAfter: c.STORE_CHALLENGE_AFTER_CARTS },
    line: { address: c.STORE_LINES_PER_ADDRESS, store: c.STORE_LINES_PER_STORE, challengeAfter: c.STORE_CHALLENGE_AFTER_LINES },
    order: { address: c.STORE_ORDERS_PER_ADDRESS, store: c.STORE_ORDERS_PER_STORE, challengeAfter: c.STORE_CHALLENGE_AFTER_ORDERS },
    // "Pay the rest" on a booking page: an order's limits in counters of its own (a customer's clicks
    // never spend the store's budget of orders), a challenge past the orders' threshold.
    pay: { address: c.STORE_ORDERS_PER_ADDRESS, store: c.STORE_ORDERS_PER_STORE, challengeAfter: c.STORE_CHALLENGE_AFTER_ORDERS },
    // Joining a waiting list: an order's limits, and always a solved challenge (it e-mails a stranger and later holds seats, like a pay-on-site order).
    waitlist: { address: c.STORE_ORDERS_PER_ADDRESS, store: c.STORE_ORDERS_PER_STORE, challengeAfter: 0 },
    // Challenges themselves: cheap to make, yet not without end.
    challenge: { address: 4 * c.STORE_CARTS_PER_ADDRESS, store: 4 * c.STORE_CARTS_PER_STORE, challengeAfter: null },
  };
  const settings: ChallengeSettings = { secret: challengeSecret(app.signingKeys.current.key, 'web-store'), cost: c.STORE_CHALLENGE_COST, digits: c.STORE_CHALLENGE_DIGITS };
  const storeKey = (request: FastifyRequest) => `${requestHost(request).subdomain ?? ''}/${(request.params as { slug?: string }).slug ?? ''}`;
  const limiters = Object.fromEntries(
    Object.entries(perKind).map(([kind, limit]) => [
      kind,
      {
        address: app.createRateLimit({ max: limit.address, timeWindow, keyGenerator: (r) => `store:${kind}:address:${clientHash(r)}` }),
        store: app.createRateLimit({ max: limit.store, timeWindow, keyGenerator: (r) => `store:${kind}:store:${storeKey(r)}` }),
      },
    ]),
  ) as Record<GuardedCall, Record<'address' | 'store', ReturnType<FastifyInstance['createRateLimit']>>>;

  app.decorate('storeChallenge', settings);
  app.decorate('storeGuard', (kind: GuardedCall) => async (request: FastifyRequest) => {
    // The address first: a flooding address spends its own allowance, not its store's.
    const byAddress = await limiters[kind].address(request);
    if (!byAddress.isAllowed && byAddress.isExceeded) throw new ThrottledError(byAddress.ttlInSeconds);
    const byStore = await limiters[kind].store(request);
    if (!byStore.isAllowed && byStore.isExceeded) throw new ThrottledError(byStore.ttlInSeconds);
    const made = byAddress.isAllowed ? 0 : byAddress.max - byAddress.remaining;
    const threshold = perKind[kind].challengeAfter;
    const always = (kind === 'order' && (request.body as { payment_option?: unknown } | undefined)?.payment_option === 'pay_on_site') || kind === 'waitlist';
    if (always || (threshold !== null && made > threshold)) {
      await requireSolved(app.database.db, settings, request.headers['x-altcha'] as string | undefined);
    }
  });
}
