import type { z } from 'zod';
import { bpToPercentText } from '@tourdesk/contracts/percent';
import type { TApiKey, TApiKeyCreated, TPartnerInvitation, TPartnerOffers, TPartnership, ZPartnerContractPatch, ZPartnerInviteInput, ZPartnerListQuery } from '@tourdesk/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { TenantCtx } from '../../lib/crud';
import { isUniqueViolation } from '../../lib/db-errors';
import { AppError, notFound } from '../../lib/errors';
import { bareOrigin } from '../../lib/host';
import { QUEUES, type Jobs } from '../../lib/jobs';
import { queueMail, type Mail, type QueuedLinkMail } from '../../lib/mailer';
import { listCsv, presentedPages, readPages } from '../../lib/list-export';
import { staffLanguage, staffTranslate, type StaffTranslate } from '../../lib/staff-text';
import type { BackOfficeLanguage } from '@tourdesk/contracts/i18n';
import type { TenantOptions } from '../../lib/tenancy';
import { newSecret, sha256 } from '../auth/crypto';
import { sellingLanguages } from '../organization/queries';
import type { Principal } from '../auth/principal';
import * as q from './queries';

/**
 * Partnerships seen from either side. The supplier edits the contract (and its offers) and issues
 * API keys; the reseller reads the same contract. An invitation is answered by the side that did
 * not send it: by subdomain in its own list, by e-mail with the link's token (it then binds its
 * organisation to the partnership). Ended is final.
 */

/**
 * Who calls, for work that spans more than the tenant's transaction (a partnership is presented
 * after it, from the server's connection): `run` runs a function in the caller's tenant, `db` is the
 * server's connection and `me` the signed-in caller. The route builds it from the request.
 */
export interface Caller {
  run: <R>(fn: (ctx: TenantCtx) => Promise<R>, options?: TenantOptions) => Promise<R>;
  db: Db;
  me: Principal;
}

type Row = q.PartnershipRow;
const sideOf = (row: Row, accountId: string): q.Side => (row.supplier_account_id === accountId ? 'supplier' : 'reseller');
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const LIVE = ['Invited', 'Active', 'Suspended'];

/**
 * Rows → responses, in two steps: `gather()` inside the tenant's transaction (the page's shared
 * offers, one query), `present()` after it (the partners' names and the offers' titles, read outside
 * the tenant; PGlite's one connection could not serve them while the transaction is open).
 */
interface Gathered {
  accountId: string;
  rows: Row[];
  shared: Awaited<ReturnType<typeof q.sharedOffersOf>>;
}
async function gather(ctx: TenantCtx, rows: Row[]): Promise<Gathered> {
  return {
    accountId: ctx.accountId,
    rows,
    shared: await q.sharedOffersOf(
      ctx,
      rows.map((r) => r.id),
    ),
  };
}

async function present(db: Db, { accountId, rows, shared }: Gathered): Promise<TPartnership[]> {
  if (rows.length === 0) return [];
  const others = rows.map((r) => (sideOf(r, accountId) === 'supplier' ? r.reseller_account_id : r.supplier_account_id)).filter((x): x is string => Boolean(x));
  const names = await q.serverAccountNames(db, [...new Set(others)]);
  // Offer titles, read outside the tenant: the reseller cannot read its supplier's catalogue.
  const titles = new Map<string, string>();
  for (const supplier of new Set(rows.map((r) => r.supplier_account_id).filter((x): x is string => Boolean(x)))) {
    const ids = shared.filter((s) => rows.find((r) => r.id === s.partnership_id)?.supplier_account_id === supplier).map((s) => s.experience_id);
    for (const [id, title] of await q.serverOfferTitles(db, supplier, ids)) titles.set(id, title);
  }
  return rows.map((r) => {
    const side = sideOf(r, accountId);
    const otherId = side === 'supplier' ? r.reseller_account_id : r.supplier_account_id;
    const other = otherId ? names.get(otherId) : undefined;
    const invitedByMe = r.invited_by_account_id === accountId;
    return {
      id: r.id,
      partner_type: side === 'supplier' ? 'Resellers' : 'Suppliers',
      side,
      status: r.status as TPartnership['status'],
      partner: { id: otherId, name: other?.name ?? null, subdomain: other?.subdomain ?? null, email: r.invite_email },
      supplier_account_id: r.supplier_account_id,
      reseller_account_id: r.reseller_account_id,
      invited_by_me: invitedByMe,
      can_respond: r.status === 'Invited' && !invitedByMe,
      can_edit: side === 'supplier' && LIVE.includes(r.status),
      pricing: r.pricing as TPartnership['pricing'],
      commission_bp: r.commission_bp,
      payment_collector: r.payment_collector as TPartnership['payment_collector'],
      valid_from: r.valid_from,
      valid_to: r.valid_to,
      currency: r.currency,
      notes: r.notes,
      offers: shared.filter((s) => s.partnership_id === r.id).map((s) => ({ experience_id: s.experience_id, title: titles.get(s.experience_id) ?? '', net_rates: s.net_rates })),
      responded_at: iso(r.responded_at),
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
    };
  });
}

/** Work in the caller's tenant that ends with one partnership, answered once the transaction is over. */
async function one(c: Caller, fn: (ctx: TenantCtx) => Promise<Row>) {
  const gathered = await c.run(async (ctx) => gather(ctx, [await fn(ctx)]));
  return (await present(c.db, gathered))[0]!;
}

/** The list's filter: its side and status, and the partners whose name or subdomain matches the search. */
export async function listFilter(c: Caller, query: Omit<z.output<typeof ZPartnerListQuery>, 'page' | 'page_size'>): Promise<q.ListFilter> {
  const { me } = c;
  const side: q.Side = query.partner_type === 'Resellers' ? 'supplier' : 'reseller';
  const search = query.search ? { term: query.search, partnerIds: await q.serverMatchingPartners(c.db, me.accountId, side, query.search) } : undefined;
  return { side, status: query.status, search };
}

/** The partnerships of one side as CSV, filtered as the list: a row per partnership with its contract. */
export async function partnershipsCsv(c: Caller, query: Omit<z.output<typeof ZPartnerListQuery>, 'page' | 'page_size'>) {
  const filter = await listFilter(c, query);
  // Every partnership with its shared offers, read in one snapshot; the partners' names and the
  // offers' titles are added after it, 500 at a time, from the server's connection.
  const pages = await c.run(
    async (ctx) => {
      const rows = await readPages((limit, offset) => q.pagePartnerships(ctx, filter, limit, offset));
      const gathered: Gathered[] = [];
      for (let i = 0; i < rows.length; i += 500) gathered.push(await gather(ctx, rows.slice(i, i + 500)));
      return gathered;
    },
    { snapshot: true },
  );
  const presented: TPartnership[] = [];
  for (const g of pages) presented.push(...(await present(c.db, g)));
  return listCsv<TPartnership>(
    [
      { header: 'partner', value: (p) => p.partner.name ?? '' },
      { header: 'subdomain', value: (p) => p.partner.subdomain ?? '' },
      { header: 'invited_email', value: (p) => p.partner.email ?? '' },
      { header: 'partner_type', value: (p) => p.partner_type },
      { header: 'status', value: (p) => p.status },
      { header: 'pricing', value: (p) => p.pricing },
      { header: 'commission_percent', value: (p) => (p.pricing === 'commission' ? { amount: bpToPercentText(p.commission_bp, 2) } : '') },
      { header: 'payment_collector', value: (p) => p.payment_collector },
      { header: 'valid_from', value: (p) => p.valid_from ?? '' },
      { header: 'valid_to', value: (p) => p.valid_to ?? '' },
      { header: 'offers', value: (p) => p.offers.map((o) => o.title).join('; ') },
      { header: 'created_at', value: (p) => p.created_at },
    ],
    presentedPages(presented, async (chunk) => chunk),
  );
}

/** How many partnerships the list's filter matches. */
export const countPartnerships = q.countPartnerships;

/** A page of partnerships, gathered in the tenant's transaction (one query for their shared offers); presentPartnerships() after it. */
export async function gatherPage(ctx: TenantCtx, filter: q.ListFilter, limit: number, offset: number) {
  return gather(ctx, await q.pagePartnerships(ctx, filter, limit, offset));
}

/** Gathered partnerships → responses, read from the server's connection once the tenant's transaction is over. */
export const presentPartnerships = present;

async function load(ctx: TenantCtx, id: string, lock = false) {
  const row = await q.loadPartnership(ctx, id, lock);
  if (!row) throw notFound('No partnership with this id.');
  return row;
}

export const getPartnership = (c: Caller, id: string) => one(c, (ctx) => load(ctx, id));

/** A contract's offers must be the supplier's own, and its net rates name the supplier's own pricing categories. */
async function checkOffers(ctx: TenantCtx, offers: { experience_id: string; net_rates: Record<string, number> }[]) {
  const ids = offers.map((o) => o.experience_id);
  if (new Set(ids).size !== ids.length) throw new AppError('invalid', 'Each offer is shared once.', 'offers');
  const own = await q.ownExperiences(ctx, ids);
  const foreign = ids.find((id) => !own.has(id));
  if (foreign) throw new AppError('invalid', 'A contract shares only your own offers: one of them is not.', 'offers');
  const categories = [...new Set(offers.flatMap((o) => Object.keys(o.net_rates)))];
  const ownCats = await q.ownCategories(ctx, categories);
  if (categories.some((c) => !ownCats.has(c))) throw new AppError('invalid', 'A net rate names a pricing category that is not yours.', 'offers');
}

function contractChanges(before: Row, after: Row) {
  const keys = ['pricing', 'commission_bp', 'payment_collector', 'valid_from', 'valid_to', 'notes', 'status'] as const;
  const changes: Record<string, unknown> = {};
  for (const k of keys) if (before[k] !== after[k]) changes[k] = [before[k], after[k]];
  return changes;
}

export async function invite(c: Caller, config: Config, jobs: Jobs, input: z.output<typeof ZPartnerInviteInput>) {
  const { me } = c;
  // I am the supplier when the other organisation will be my reseller.
  const iSupply = input.partner_type === 'Resellers';
  if (!iSupply && input.offers.length) throw new AppError('invalid', 'The supplier chooses the offers a contract shares: invite without offers.', 'offers');
  let other: Awaited<ReturnType<typeof q.serverAccountBySubdomain>>;
  if (input.subdomain) {
    other = await q.serverAccountBySubdomain(c.db, input.subdomain);
    if (!other) throw new AppError('not_found', 'No organisation has this subdomain.', 'subdomain');
    if (other.id === me.accountId) throw new AppError('invalid', 'This is your own organisation: invite another one.', 'subdomain');
  }
  const byEmail = Boolean(input.email);
  const result = await one(c, async (ctx) => {
    if (iSupply) await checkOffers(ctx, input.offers);
    const supplier = iSupply ? me.accountId : (other?.id ?? null);
    const reseller = iSupply ? (other?.id ?? null) : me.accountId;
    if (supplier && reseller && (await q.liveBetween(ctx, supplier, reseller))) throw new AppError('conflict', 'You already have a partnership with this organisation.', 'subdomain');
    let row: Row;
    try {
      row = await q.insertPartnership(ctx, {
        supplier_account_id: supplier,
        reseller_account_id: reseller,
        invited_by_account_id: me.accountId,
        invited_by_user_id: me.userId,
        invite_email: input.email ?? null,
        // The invitation's token is minted when its e-mail is sent (`composePartnerInvitation()`).
        invite_token_hash: null,
        status: 'Invited',
        pricing: input.pricing,
        commission_bp: input.commission_bp,
        payment_collector: input.payment_collector,
        valid_from: input.valid_from,
        valid_to: input.valid_to,
        notes: input.notes,
        currency: iSupply ? me.currency : (other?.currency ?? me.currency),
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('conflict', 'You already have a partnership with this organisation.', 'subdomain');
      throw error;
    }
    if (iSupply) await q.replaceSharedOffers(ctx, row.id, input.offers);
    await q.recordPartnerAudit(ctx.tx, me.accountId, me.userId, row.id, 'invited', { partner_type: input.partner_type, subdomain: input.subdomain ?? null, email: input.email ?? null });
    if (input.email) {
      // In the inviting user's back-office language (else their organisation's): the invited organisation's is unknown.
      const mine = await q.inviter(ctx, me.userId);
      const language = staffLanguage(mine?.language, await sellingLanguages(ctx.tx, { id: ctx.accountId }));
      const link: PartnerInvitationLink = { kind: 'partner_invitation', partnership: row.id, language, inviter: mine?.name ?? me.subdomain, role: iSupply ? 'reseller' : 'supplier' };
      const mail: QueuedLinkMail = { to: input.email, subject: invitationMail(config, input.email, link, '').subject, account: me.accountId, link };
      await queueMail(jobs, config, ctx.tx, [mail]);
    }
    return row;
  });
  if (byEmail) jobs.wake(QUEUES.email);
  return result;
}

/** A partner's invitation e-mail as its job keeps it: the partnership's id, never its token (made when sent). */
export type PartnerInvitationLink = {
  kind: 'partner_invitation';
  partnership: string;
  language: BackOfficeLanguage;
  inviter: string;
  role: 'reseller' | 'supplier';
};

/**
 * The invitation's e-mail, its token minted now: only the token's hash is kept on the partnership
 * (a retry mints another, so only the last message's link works); null when the invitation was
 * answered or withdrawn before its e-mail went.
 */
export async function composePartnerInvitation(db: Db, config: Config, to: string, link: PartnerInvitationLink): Promise<Mail | null> {
  const token = newSecret(32);
  if (!(await q.serverSetInviteToken(db, link.partnership, sha256(token)))) return null;
  return invitationMail(config, to, link, token);
}

function invitationMail(config: Config, to: string, { language, inviter, role }: PartnerInvitationLink, token: string): Mail {
  const t: StaffTranslate = staffTranslate(language);
  const origin = bareOrigin(config);
  const tenantPattern = `${config.publicUrl.protocol}//<your-subdomain>.${config.publicUrl.host}`;
  const path = `/sales/partners/invitation/${token}`;
  return {
    to,
    subject: t('partnerInvitation.subject', { inviter }),
    text: `${t('partnerInvitation.text', { inviter, role, signIn: `${origin}/auth/login?next=${path}`, ownAddress: `${tenantPattern}${path}`, register: `${origin}/auth/register` })}\n\n— Tourdesk`,
  };
}

export function updateContract(c: Caller, id: string, input: z.output<typeof ZPartnerContractPatch>) {
  const { me } = c;
  return one(c, async (ctx) => {
    const row = await load(ctx, id, true);
    if (sideOf(row, ctx.accountId) !== 'supplier') throw new AppError('permission_denied', 'The supplier edits the contract; you can read it.');
    if (!LIVE.includes(row.status)) throw new AppError('conflict', `The partnership is ${row.status.toLowerCase()}: its contract can no longer change.`);
    const validFrom = input.valid_from !== undefined ? input.valid_from : row.valid_from;
    const validTo = input.valid_to !== undefined ? input.valid_to : row.valid_to;
    if (validFrom && validTo && validTo < validFrom) throw new AppError('invalid', 'The contract cannot end before it starts.', 'valid_to');
    if (input.offers) await checkOffers(ctx, input.offers);
    const values: Partial<Row> = {};
    for (const k of ['pricing', 'commission_bp', 'payment_collector', 'valid_from', 'valid_to', 'notes'] as const) if (input[k] !== undefined) (values as Record<string, unknown>)[k] = input[k];
    const after = await q.updatePartnership(ctx.tx, id, values);
    if (input.offers) await q.replaceSharedOffers(ctx, id, input.offers);
    await q.recordPartnerAudit(ctx.tx, me.accountId, me.userId, id, 'contract changed', { ...contractChanges(row, after), ...(input.offers ? { offers: input.offers.map((o) => o.experience_id) } : {}) });
    return after;
  });
}

type Transition = 'accept' | 'decline' | 'suspend' | 'resume' | 'end';

/** The status actions: who may do each, from which status. */
export async function transition(c: Caller, id: string, action: Transition) {
  const { me } = c;
  const answer = await one(c, async (ctx) => {
    // FOR UPDATE: a suspension waits for a sale in progress (sharedOffer reads FOR SHARE).
    const row = await load(ctx, id, true);
    const side = sideOf(row, ctx.accountId);
    const invitedByMe = row.invited_by_account_id === ctx.accountId;
    const refuse = (detail: string) => {
      throw new AppError('conflict', detail);
    };
    let status: string;
    const extra: Partial<Row> = {};
    switch (action) {
      case 'accept':
      case 'decline':
        if (row.status !== 'Invited') refuse(`This invitation was already answered (${row.status.toLowerCase()}).`);
        if (invitedByMe) throw new AppError('permission_denied', 'The invited organisation answers the invitation, not the one that sent it.');
        status = action === 'accept' ? 'Active' : 'Declined';
        Object.assign(extra, { responded_at: new Date(), invite_token_hash: null });
        break;
      case 'suspend':
        if (side !== 'supplier') throw new AppError('permission_denied', 'The supplier suspends a partnership.');
        if (row.status !== 'Active') refuse(`Only an active partnership can be suspended; this one is ${row.status.toLowerCase()}.`);
        status = 'Suspended';
        break;
      case 'resume':
        if (side !== 'supplier') throw new AppError('permission_denied', 'The supplier resumes a partnership.');
        if (row.status !== 'Suspended') refuse(`Only a suspended partnership can be resumed; this one is ${row.status.toLowerCase()}.`);
        status = 'Active';
        break;
      case 'end':
        if (!LIVE.includes(row.status)) refuse(`The partnership is already ${row.status.toLowerCase()}.`);
        if (row.status === 'Invited' && !invitedByMe) refuse('Decline the invitation instead.');
        status = 'Ended';
        extra.invite_token_hash = null;
        break;
    }
    const after = await q.updatePartnership(ctx.tx, id, { status, ...extra });
    if (action === 'end' && side === 'supplier') await q.revokeAllApiKeys(ctx, id);
    const verb = { accept: 'accepted', decline: 'declined', suspend: 'suspended', resume: 'resumed', end: 'ended' }[action];
    await q.recordPartnerAudit(ctx.tx, me.accountId, me.userId, id, verb, { status: [row.status, status] });
    return after;
  });
  // Ended by the reseller: the supplier's keys (in the supplier's tenant) are revoked once that is committed.
  if (action === 'end' && answer.side === 'reseller') await q.serverRevokeAllApiKeys(c.db, id);
  return answer;
}

export async function offerChoices(ctx: TenantCtx, id: string): Promise<TPartnerOffers> {
  const row = await load(ctx, id);
  if (sideOf(row, ctx.accountId) !== 'supplier') throw new AppError('permission_denied', 'The supplier chooses the offers; the contract lists the ones it shares.');
  const shared = new Map((await q.sharedOffersOf(ctx, [id])).map((s) => [s.experience_id, s.net_rates]));
  const { offers, prices } = await q.offerChoices(ctx);
  return {
    currency: row.currency,
    results: offers
      .filter((o) => o.status !== 'Archived' || shared.has(o.id))
      .map((o) => ({
        experience_id: o.id,
        title: o.title,
        status: o.status,
        shared: shared.has(o.id),
        net_rates: shared.get(o.id) ?? {},
        prices: prices.filter((p) => p.experience_id === o.id).map(({ experience_id: _e, ...p }) => p),
      })),
  };
}

// API keys: the supplier issues them for a partnership (the public booking API and OCTO use them).

const presentKey = (k: { id: string; name: string; prefix: string; created_at: Date; last_used_at: Date | null; revoked_at: Date | null }): TApiKey => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  created_at: k.created_at.toISOString(),
  last_used_at: iso(k.last_used_at),
  revoked_at: iso(k.revoked_at),
});

/** The partnership, if the caller is its supplier (who issues its API keys); else 403. */
export async function supplierOf(ctx: TenantCtx, id: string) {
  const row = await load(ctx, id);
  if (sideOf(row, ctx.accountId) !== 'supplier') throw new AppError('permission_denied', 'The supplier issues API keys for its partners.');
  return row;
}

/** How many API keys the partnership has. */
export const countApiKeys = q.countApiKeys;

/** A page of the partnership's API keys. */
export async function apiKeyPage(ctx: TenantCtx, id: string, limit: number, offset: number) {
  return (await q.listApiKeys(ctx, id, limit, offset)).map(presentKey);
}

/** `td_` + base64url of 32 random bytes; only its SHA-256 is kept, its first 10 characters name it. */
export function newApiSecret() {
  const secret = `td_${newSecret(32)}`;
  return { secret, prefix: secret.slice(0, 10), secret_hash: sha256(secret) };
}

/** `me` is the caller, who issues the key. */
export async function createApiKey(ctx: TenantCtx, me: Principal, id: string, name: string): Promise<TApiKeyCreated> {
  const row = await supplierOf(ctx, id);
  if (!['Active', 'Suspended'].includes(row.status)) throw new AppError('conflict', `The partnership is ${row.status.toLowerCase()}: keys are issued for an accepted partnership.`);
  const { secret, prefix, secret_hash } = newApiSecret();
  const key = await q.insertApiKey(ctx, { partnership_id: id, name, prefix, secret_hash, created_by: me.userId });
  await q.recordPartnerAudit(ctx.tx, me.accountId, me.userId, id, 'api key created', { key: key.id, name, prefix });
  return { ...presentKey(key), secret };
}

export async function revokeApiKey(ctx: TenantCtx, me: Principal, id: string, keyId: string): Promise<TApiKey> {
  await supplierOf(ctx, id);
  const key = await q.revokeApiKey(ctx, id, keyId);
  if (!key) {
    if (await q.apiKeyExists(ctx, id, keyId)) throw new AppError('conflict', 'This key is already revoked.');
    throw notFound('No API key with this id.');
  }
  await q.recordPartnerAudit(ctx.tx, me.accountId, me.userId, id, 'api key revoked', { key: keyId, prefix: key.prefix });
  return presentKey(key);
}

// E-mail invitations: found by the hash of the link's token, outside any tenant (the invitee is not a side yet).

async function openInvitation(db: Db, token: string, lock = false) {
  const row = await q.serverInvitation(db, sha256(token), lock);
  if (!row) throw notFound('This invitation does not exist or was already answered.');
  return row;
}

export async function invitation(db: Db, token: string): Promise<TPartnerInvitation> {
  const row = await openInvitation(db, token);
  const inviter = (await q.serverAccountNames(db, [row.invited_by_account_id])).get(row.invited_by_account_id)!;
  return {
    status: row.status as TPartnerInvitation['status'],
    invitee_side: row.supplier_account_id ? 'reseller' : 'supplier',
    inviter,
    email: row.invite_email ?? '',
    pricing: row.pricing as TPartnerInvitation['pricing'],
    commission_bp: row.commission_bp,
    payment_collector: row.payment_collector as TPartnerInvitation['payment_collector'],
    valid_from: row.valid_from,
    valid_to: row.valid_to,
    currency: row.currency,
    offer_count: await q.serverOfferCount(db, row.id),
  };
}

/** Accepting binds the caller's organisation to the empty side; declining leaves it empty. */
export async function answerInvitation(c: Caller, token: string, accept: boolean) {
  const { me } = c;
  const id = await q.inServerTransaction(c.db, async (tx) => {
    const row = await openInvitation(tx, token, true);
    if (row.invited_by_account_id === me.accountId) throw new AppError('invalid', 'Your organisation sent this invitation: the invited organisation answers it.');
    const values: Partial<Row> = { status: accept ? 'Active' : 'Declined', invite_token_hash: null, responded_at: new Date() };
    if (accept) {
      const supplier = row.supplier_account_id ?? me.accountId;
      const reseller = row.reseller_account_id ?? me.accountId;
      if (await q.serverLiveBetween(tx, supplier, reseller)) throw new AppError('conflict', 'Your organisation already has a partnership with this one.');
      if (row.supplier_account_id) values.reseller_account_id = me.accountId;
      else {
        values.supplier_account_id = me.accountId;
        values.currency = me.currency;
      }
    }
    try {
      await q.updatePartnership(tx, row.id, values);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('conflict', 'Your organisation already has a partnership with this one.');
      throw error;
    }
    await q.recordPartnerAudit(tx, me.accountId, me.userId, row.id, accept ? 'accepted' : 'declined', { by: 'e-mail invitation' });
    return row.id;
  });
  if (!accept) return null;
  return getPartnership(c, id);
}
