import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Language } from '@tourdesk/contracts/i18n';
import type { Db } from '../../db/client';
import { todayIn } from '../../lib/local-time';
import { hit } from '../../lib/throttle';
import { sellingLanguages } from '../organization/queries';
import { type Contract, contractRefusal, planRefusal } from '../partners/contract';
import { partnerKeyRow, touchKeyLastUsed } from './queries';

/**
 * A partner's API key (the OCTO API and the public booking API): `Authorization: Bearer td_…`,
 * looked up by the SHA-256 of the whole secret (as tourdesk_server, outside any tenant), not
 * revoked, its partnership Active and within its validity (contractRefusal, the contract's rule).
 * Every call then works in the SUPPLIER's tenant, on the offers the contract shares only.
 *
 * A key found is kept two seconds in this process with the offers its contract shares (as the
 * web store keeps a store): a revocation or a suspension reaches the reads within 2 s, and every
 * write reads the contract again under its lock (sharedOffer).
 */
export interface SharedProduct {
  id: string;
  title: string;
  shortDescription: string;
  durationMinutes: number;
  /** Minutes before a start when sales close (the offer's, else the organisation's). */
  cutoffMinutes: number;
  netRates: Record<string, number>;
  /** False when the offer is confirmed by hand (confirmation_mode 'manual'): a confirmed booking is PENDING until the supplier confirms it. */
  instantConfirmation: boolean;
  /**
   * Sold by opening hours (OCTO's OPENING_HOURS): every schedule rule of the offer is `opening_hours`
   * (one slot a day, from opening to closing time); otherwise by start time (START_TIME).
   */
  openingHours: boolean;
}
export interface Partner {
  keyId: string;
  prefix: string;
  partnershipId: string;
  supplierId: string;
  resellerId: string;
  supplierName: string;
  supplierSubdomain: string;
  /** The reseller's billing address: the customer of record of a booking whose contact gives none. */
  resellerEmail: string | null;
  /** The languages the supplier sells in, its first the main one (Accept-Language is negotiated among them). */
  languages: Language[];
  timeZone: string;
  currency: string;
  /** Whether the supplier's plan and the reseller's have the `partners` feature (the partners pages' own): without it on both sides nothing is sold through a key (planRefusal). */
  plans: { supplier: boolean; reseller: boolean };
  contract: Contract;
  /** The supplier's local date when the key was last read (two seconds at most). */
  today: string;
  products: Map<string, SharedProduct>;
  /** The supplier's pricing categories that do not occupy a seat (lap infants): units that take no seat. */
  seatless: Set<string>;
}

export class KeyRefused extends Error {
  constructor(
    readonly status: 401 | 403 | 429,
    readonly code: 'UNAUTHORIZED' | 'FORBIDDEN' | 'TOO_MANY_REQUESTS',
    message: string,
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const KEY_TTL_MS = 2_000;
/** last_used_at is written at most once a minute per key (per process). */
const LAST_USED_EVERY_MS = 60_000;
interface Known {
  partner: Partner | null;
  /** The supplier's local date when the key was read. */
  today: string;
}
/**
 * Keys read in the last two seconds, and keys being read: the calls that arrive while a key is
 * read (every call of a busy key when its two seconds run out) wait for that one read instead of
 * each reading it again.
 */
const cache = new Map<string, { known?: Known; loading?: Promise<Known>; expires: number }>();
const lastUsedWritten = new Map<string, number>();

/** The bearer secret of the request, or null. */
export function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

async function loadPartner(db: Db, hash: string): Promise<Partner | null> {
  const row = await partnerKeyRow(db, hash);
  if (!row) return null;
  const products = new Map<string, SharedProduct>();
  for (const p of row.products) {
    products.set(p.id, {
      id: p.id,
      title: p.title,
      shortDescription: p.short ?? '',
      durationMinutes: p.duration ?? 60,
      cutoffMinutes: p.cutoff || row.default_cutoff_minutes,
      netRates: p.net ?? {},
      instantConfirmation: !p.manual,
      openingHours: p.opening,
    });
  }
  return {
    keyId: row.key_id,
    prefix: row.prefix,
    partnershipId: row.contract.id,
    supplierId: row.contract.supplier_account_id!,
    resellerId: row.contract.reseller_account_id!,
    supplierName: row.name,
    resellerEmail: row.reseller_email,
    languages: await sellingLanguages(db, { id: row.contract.supplier_account_id! }),
    supplierSubdomain: row.subdomain,
    timeZone: row.time_zone,
    currency: row.contract.currency,
    plans: { supplier: row.supplier_partners, reseller: row.reseller_partners },
    contract: row.contract,
    today: '',
    products,
    seatless: new Set(row.seatless),
  };
}

/**
 * The partner behind the request's key, or a refusal: 401 without a key or with an unknown or
 * revoked one, 403 when its partnership may not sell today, 429 over the key's rate.
 */
export async function authenticatePartner(request: FastifyRequest): Promise<Partner> {
  const secret = bearer(request);
  if (!secret) throw new KeyRefused(401, 'UNAUTHORIZED', 'An API key is required: send it as Authorization: Bearer <key>.');
  const hash = sha256(secret);
  const db = request.server.database.db;
  const now = Date.now();
  let entry = cache.get(hash);
  if (!entry || (entry.expires <= now && !entry.loading)) {
    if (cache.size > 10_000) cache.clear();
    const loading = loadPartner(db, hash).then((partner): Known => ({ partner, today: partner ? todayIn(partner.timeZone) : '' }));
    const made = { loading, expires: now + KEY_TTL_MS };
    entry = made;
    cache.set(hash, made);
    loading.then(
      (known) => {
        if (cache.get(hash) === made) cache.set(hash, { known, expires: Date.now() + KEY_TTL_MS });
      },
      () => {
        if (cache.get(hash) === made) cache.delete(hash);
      },
    );
  }
  const known = entry.loading ? await entry.loading : entry.known!;
  const partner = known.partner;
  if (!partner) throw new KeyRefused(401, 'UNAUTHORIZED', 'This API key is not valid (unknown or revoked).');
  // The supplier's local day, read when the key was (at most two seconds ago).
  partner.today = known.today;
  const noPlan = planRefusal(partner.plans);
  if (noPlan) throw new KeyRefused(403, 'FORBIDDEN', noPlan);
  const refusal = contractRefusal(partner.contract, known.today);
  if (refusal) throw new KeyRefused(403, 'FORBIDDEN', refusal);
  await countCall(request, partner, now);
  const written = lastUsedWritten.get(partner.keyId) ?? 0;
  if (now - written > LAST_USED_EVERY_MS) {
    lastUsedWritten.set(partner.keyId, now);
    await touchKeyLastUsed(db, partner.keyId);
  }
  // The audit trail of reads: one log line per call names the key and the partnership (writes are
  // also recorded in the order's audit trail and the reservation's row).
  request.log.info({ apiKey: partner.prefix, partnership: partner.partnershipId, supplier: partner.supplierId }, 'partner API call');
  return partner;
}

/**
 * The key's rate, counted in the shared rate_limit table (lib/throttle.ts), so every process of
 * the deployment counts against one window. One key's calls all write one row, and a write per call
 * queued them all behind that row's lock (a commit each): each process counts its calls and adds
 * them to the row at most every 200 ms or 20 calls, deciding in between from the window's count it
 * last read plus its own. Over the limit: 429 with Retry-After. (A deployment of n processes may
 * let up to n × 20 calls more through in a window than the limit.)
 */
const FLUSH_EVERY_MS = 200;
const FLUSH_CALLS = 20;
const rates = new Map<string, { pending: number; flushed: number; count: number; retryAfter: number }>();

async function countCall(request: FastifyRequest, partner: Partner, now: number) {
  const { config, database } = request.server;
  let rate = rates.get(partner.keyId);
  if (!rate) {
    if (rates.size > 10_000) rates.clear();
    rate = { pending: 0, flushed: 0, count: 0, retryAfter: 0 };
    rates.set(partner.keyId, rate);
  }
  rate.pending += 1;
  if (rate.pending >= FLUSH_CALLS || now - rate.flushed >= FLUSH_EVERY_MS) {
    const events = rate.pending;
    rate.pending = 0;
    rate.flushed = now;
    const counted = await hit(database.db, `api-key:${partner.keyId}`, config.API_KEY_RATE_WINDOW_SECONDS, events);
    rate.count = counted.count;
    rate.retryAfter = counted.retryAfter;
  } else {
    rate.count += 1;
  }
  if (rate.count > config.API_KEY_RATE_LIMIT) {
    throw new KeyRefused(429, 'TOO_MANY_REQUESTS', `This key made more than ${config.API_KEY_RATE_LIMIT} calls in ${config.API_KEY_RATE_WINDOW_SECONDS} s. Try again in ${Math.max(1, rate.retryAfter)} s.`, Math.max(1, rate.retryAfter));
  }
}

/** The partner of a key's secret (no cache, no refusal): what a test compares the API with. */
export async function partnerOfSecret(db: Db, secret: string) {
  const partner = await loadPartner(db, sha256(secret));
  if (partner) partner.today = todayIn(partner.timeZone);
  return partner;
}

/** Forgets cached keys (tests that revoke a key or suspend a partnership and look again at once). */
export function forgetPartnerKeys() {
  cache.clear();
  rates.clear();
}
