import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZApiKeyCreated, ZPartnership, type TPartnership } from '@tourdesk/contracts';
import { apiKey, baseAccount } from '../src/db/schema';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation, inviteMember } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/** Partners: invitations by subdomain and e-mail, one contract both sides read, its status, API keys. */
let t: TestApp;
let sink: MailSink;
let supplier: Browser;
let reseller: Browser;
let third: Browser;
let kayak: Awaited<ReturnType<typeof sellableExperience>>;
let bike: Awaited<ReturnType<typeof sellableExperience>>;
let foreignOffer: Awaited<ReturnType<typeof sellableExperience>>;
let active: TPartnership;

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  supplier = await createOrganisation(t.app, sink, { subdomain: 'lakeside', currency: 'CHF' });
  reseller = await createOrganisation(t.app, sink, { subdomain: 'hotel-desk', kind: 'affiliate' });
  third = await createOrganisation(t.app, sink, { subdomain: 'stranger' });
  kayak = await sellableExperience(supplier, 'Kayak');
  bike = await sellableExperience(supplier, 'Bike');
  foreignOffer = await sellableExperience(third, 'Not yours');
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const errorOf = (res: { json(): unknown }) => (res.json() as { errors: { code: string; attr: string | null; detail: string }[] }).errors[0]!;
const contractOf = (p: TPartnership) => ({ pricing: p.pricing, commission_bp: p.commission_bp, payment_collector: p.payment_collector, valid_from: p.valid_from, valid_to: p.valid_to, notes: p.notes, currency: p.currency, offers: p.offers, status: p.status });

describe('invitation by subdomain', () => {
  it('refuses bad invitations with clear 4xx', async () => {
    const neither = await supplier.post('/api/partners/', { partner_type: 'Resellers' });
    expect(neither.statusCode).toBe(400);
    const both = await supplier.post('/api/partners/', { partner_type: 'Resellers', subdomain: 'hotel-desk', email: 'a@b.test' });
    expect(both.statusCode).toBe(400);
    const unknown = await supplier.post('/api/partners/', { partner_type: 'Resellers', subdomain: 'nobody-here' });
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown).attr).toBe('subdomain');
    const own = await supplier.post('/api/partners/', { partner_type: 'Resellers', subdomain: 'lakeside' });
    expect(own.statusCode).toBe(400);
    const foreign = await supplier.post('/api/partners/', { partner_type: 'Resellers', subdomain: 'hotel-desk', offers: [{ experience_id: foreignOffer.id }] });
    expect(foreign.statusCode).toBe(400);
    expect(errorOf(foreign).attr).toBe('offers');
    const tooMuch = await supplier.post('/api/partners/', { partner_type: 'Resellers', subdomain: 'hotel-desk', commission_bp: 10_001 });
    expect(tooMuch.statusCode).toBe(400);
    const backwards = await supplier.post('/api/partners/', { partner_type: 'Resellers', subdomain: 'hotel-desk', valid_from: '2030-02-01', valid_to: '2030-01-01' });
    expect(backwards.statusCode).toBe(400);
    expect((await supplier.get('/api/partners/?partner_type=Everyone')).statusCode).toBe(400);
    expect((await supplier.get('/api/partners/')).json().count).toBe(0);
  });

  it('invites; the invitee answers in its Suppliers list; both read the same contract; a third organisation sees nothing', async () => {
    const res = await supplier.post('/api/partners/', {
      partner_type: 'Resellers',
      subdomain: 'Hotel-Desk',
      commission_bp: 1500,
      payment_collector: 'reseller',
      valid_from: '2026-01-01',
      offers: [{ experience_id: kayak.id }, { experience_id: bike.id }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const invited = ZPartnership.parse(res.json());
    expect(invited).toMatchObject({ status: 'Invited', partner_type: 'Resellers', side: 'supplier', partner: { name: 'hotel-desk tours', subdomain: 'hotel-desk' }, currency: 'CHF', invited_by_me: true, can_respond: false, can_edit: true });
    expect(invited.offers.map((o) => o.title).sort()).toEqual(['Bike', 'Kayak']);
    const again = await supplier.post('/api/partners/', { partner_type: 'Resellers', subdomain: 'hotel-desk' });
    expect(again.statusCode).toBe(409);
    // The other direction between the same pair is another partnership (the reseller would supply).
    // The supplier cannot answer its own invitation.
    expect((await supplier.post(`/api/partners/${invited.id}/accept/`)).statusCode).toBe(403);

    const theirs = (await reseller.get('/api/partners/?partner_type=Suppliers&status=Invited')).json();
    expect(theirs.count).toBe(1);
    expect(theirs.results[0]).toMatchObject({ id: invited.id, side: 'reseller', partner_type: 'Suppliers', partner: { subdomain: 'lakeside', name: 'lakeside tours' }, can_respond: true, can_edit: false });
    expect((await reseller.get('/api/partners/?partner_type=Resellers')).json().count).toBe(0);
    expect((await reseller.get('/api/partners/?partner_type=Suppliers&search=lakeSIDE')).json().count).toBe(1);
    expect((await reseller.get('/api/partners/?partner_type=Suppliers&search=nothing')).json().count).toBe(0);

    // A third organisation: not in its lists, 404 on every call.
    expect((await third.get('/api/partners/?partner_type=Suppliers')).json().count).toBe(0);
    expect((await third.get('/api/partners/?partner_type=Resellers')).json().count).toBe(0);
    for (const [method, path] of [
      ['GET', ''],
      ['PATCH', ''],
      ['POST', 'accept/'],
      ['POST', 'decline/'],
      ['POST', 'suspend/'],
      ['POST', 'end/'],
      ['GET', 'offers/'],
      ['GET', 'api-keys/'],
    ] as const) {
      const r = await third.request(method, `/api/partners/${invited.id}/${path}`, method === 'GET' ? undefined : method === 'PATCH' ? { commission_bp: 9000 } : {});
      expect(r.statusCode, `${method} ${path}`).toBe(404);
    }

    const accepted = await reseller.post(`/api/partners/${invited.id}/accept/`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ status: 'Active', can_respond: false });
    expect((await reseller.post(`/api/partners/${invited.id}/accept/`)).statusCode).toBe(409);

    const a = ZPartnership.parse((await supplier.get(`/api/partners/${invited.id}/`)).json());
    const b = ZPartnership.parse((await reseller.get(`/api/partners/${invited.id}/`)).json());
    expect(contractOf(a)).toEqual(contractOf(b));
    expect(a).toMatchObject({ status: 'Active', commission_bp: 1500, payment_collector: 'reseller', valid_from: '2026-01-01' });
    active = a;

    // Each side's list as CSV, with the contract; the search and status filter it as the list.
    const csv = await supplier.get('/api/partners/export.csv?partner_type=Resellers');
    expect(csv.statusCode, csv.body).toBe(200);
    const rows = csv.body.trimEnd().split('\r\n');
    expect(rows[0]).toBe('partner,subdomain,invited_email,partner_type,status,pricing,commission_percent,payment_collector,valid_from,valid_to,offers,created_at');
    expect(rows.slice(1)).toEqual([expect.stringMatching(/^hotel-desk tours,hotel-desk,,Resellers,Active,commission,15\.00,reseller,2026-01-01,,(Bike; Kayak|Kayak; Bike),/)]);
    expect((await reseller.get('/api/partners/export.csv?partner_type=Suppliers&search=lakeside')).body).toContain('lakeside tours,lakeside,,Suppliers,Active,');
    expect((await reseller.get('/api/partners/export.csv?partner_type=Suppliers&status=Ended')).body.trimEnd().split('\r\n')).toHaveLength(1);
    expect((await third.get('/api/partners/export.csv?partner_type=Suppliers')).body.trimEnd().split('\r\n')).toHaveLength(1);
  });

  it('lets only the supplier change the contract, with its own offers and categories; the reseller reads the change', async () => {
    const denied = await reseller.patch(`/api/partners/${active.id}/`, { commission_bp: 9000 });
    expect(denied.statusCode).toBe(403);
    expect((await reseller.get(`/api/partners/${active.id}/offers/`)).statusCode).toBe(403);
    const foreignCategory = await supplier.patch(`/api/partners/${active.id}/`, { offers: [{ experience_id: kayak.id, net_rates: { [foreignOffer.category]: 100 } }] });
    expect(foreignCategory.statusCode).toBe(400);
    const twice = await supplier.patch(`/api/partners/${active.id}/`, { offers: [{ experience_id: kayak.id }, { experience_id: kayak.id }] });
    expect(twice.statusCode).toBe(400);
    const backwards = await supplier.patch(`/api/partners/${active.id}/`, { valid_to: '2025-12-31' });
    expect(backwards.statusCode).toBe(400);
    expect(errorOf(backwards).attr).toBe('valid_to');

    const choices = (await supplier.get(`/api/partners/${active.id}/offers/`)).json();
    expect(choices.currency).toBe('CHF');
    const kayakChoice = choices.results.find((o: { experience_id: string }) => o.experience_id === kayak.id);
    expect(kayakChoice).toMatchObject({ shared: true, title: 'Kayak', prices: [{ pricing_category_id: kayak.category, retail_price: 4900 }] });

    const changed = await supplier.patch(`/api/partners/${active.id}/`, { pricing: 'net', offers: [{ experience_id: kayak.id, net_rates: { [kayak.category]: 3900 } }], notes: 'Pay monthly.' });
    expect(changed.statusCode, changed.body).toBe(200);
    const seen = ZPartnership.parse((await reseller.get(`/api/partners/${active.id}/`)).json());
    expect(seen).toMatchObject({ pricing: 'net', notes: 'Pay monthly.', offers: [{ experience_id: kayak.id, title: 'Kayak', net_rates: { [kayak.category]: 3900 } }] });
    const after = (await supplier.get(`/api/partners/${active.id}/offers/`)).json();
    expect(after.results.find((o: { experience_id: string }) => o.experience_id === bike.id).shared).toBe(false);
    // Recorded in the audit trail of the organisation that acted.
    const audit = (await t.database.db.execute(sql`select action from audit_event where subject = 'partnership' and subject_id = ${active.id} order by created_at`)) as unknown as { rows: { action: string }[] };
    expect(audit.rows.map((r) => r.action)).toEqual(['invited', 'accepted', 'contract changed']);
  });

  it('issues API keys (secret shown once, only its hash kept) and revokes them, the supplier only', async () => {
    expect((await reseller.post(`/api/partners/${active.id}/api-keys/`, { name: 'Theirs' })).statusCode).toBe(403);
    expect((await supplier.post(`/api/partners/${active.id}/api-keys/`, { name: '' })).statusCode).toBe(400);
    const res = await supplier.post(`/api/partners/${active.id}/api-keys/`, { name: 'Booking engine' });
    expect(res.statusCode, res.body).toBe(201);
    const key = ZApiKeyCreated.parse(res.json());
    expect(key.secret).toMatch(/^td_[A-Za-z0-9_-]{43}$/);
    expect(key.prefix).toBe(key.secret.slice(0, 10));
    const [stored] = await t.database.db.select().from(apiKey).where(eq(apiKey.id, key.id));
    expect(stored!.secret_hash).toBe(createHash('sha256').update(key.secret).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(key.secret);
    const listed = (await supplier.get(`/api/partners/${active.id}/api-keys/`)).json();
    expect(listed.count).toBe(1);
    expect(listed.results[0]).toMatchObject({ id: key.id, name: 'Booking engine', prefix: key.prefix, revoked_at: null });
    expect(JSON.stringify(listed)).not.toContain(key.secret);
    expect((await third.post(`/api/partners/${active.id}/api-keys/${key.id}/revoke/`)).statusCode).toBe(404);
    const revoked = await supplier.post(`/api/partners/${active.id}/api-keys/${key.id}/revoke/`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().revoked_at).not.toBeNull();
    expect((await supplier.post(`/api/partners/${active.id}/api-keys/${key.id}/revoke/`)).statusCode).toBe(409);
    expect((await supplier.post(`/api/partners/${active.id}/api-keys/00000000-0000-4000-8000-000000000000/revoke/`)).statusCode).toBe(404);
  });

  it('suspends, resumes and ends (final); the reseller cannot suspend', async () => {
    expect((await reseller.post(`/api/partners/${active.id}/suspend/`)).statusCode).toBe(403);
    expect((await supplier.post(`/api/partners/${active.id}/resume/`)).statusCode).toBe(409);
    expect((await supplier.post(`/api/partners/${active.id}/suspend/`)).json().status).toBe('Suspended');
    expect((await reseller.get(`/api/partners/${active.id}/`)).json().status).toBe('Suspended');
    expect((await supplier.post(`/api/partners/${active.id}/suspend/`)).statusCode).toBe(409);
    expect((await supplier.post(`/api/partners/${active.id}/resume/`)).json().status).toBe('Active');
    const live = await supplier.post(`/api/partners/${active.id}/api-keys/`, { name: 'Live' });
    expect((await reseller.post(`/api/partners/${active.id}/end/`)).json().status).toBe('Ended');
    expect((await supplier.post(`/api/partners/${active.id}/resume/`)).statusCode).toBe(409);
    expect((await supplier.post(`/api/partners/${active.id}/end/`)).statusCode).toBe(409);
    expect((await supplier.patch(`/api/partners/${active.id}/`, { commission_bp: 100 })).statusCode).toBe(409);
    expect((await supplier.post(`/api/partners/${active.id}/api-keys/`, { name: 'Late' })).statusCode).toBe(409);
    // The supplier's keys of an ended partnership stop working.
    const keys = (await supplier.get(`/api/partners/${active.id}/api-keys/`)).json().results;
    expect(keys.find((k: { id: string }) => k.id === live.json().id).revoked_at).not.toBeNull();
    // Ended frees the pair for a new partnership.
    const anew = await supplier.post('/api/partners/', { partner_type: 'Resellers', subdomain: 'hotel-desk' });
    expect(anew.statusCode).toBe(201);
    expect((await reseller.post(`/api/partners/${anew.json().id}/decline/`)).json().status).toBe('Declined');
    expect((await reseller.get('/api/partners/?partner_type=Suppliers&status=Declined')).json().count).toBe(1);
  });
});

describe('invitation by e-mail', () => {
  let agency: Browser;
  beforeAll(async () => {
    agency = await createOrganisation(t.app, sink, { subdomain: 'mountain-agency', kind: 'affiliate' });
  });
  const tokenIn = async (to: string) => {
    const mail = await sink.latest(to, /invited your organisation/);
    return /\/sales\/partners\/invitation\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
  };

  it('sends a link; the invitee reads it, accepts for its organisation and both see one contract', async () => {
    const res = await supplier.post('/api/partners/', { partner_type: 'Resellers', email: 'Desk@Mountain.test', commission_bp: 1000, offers: [{ experience_id: kayak.id }] });
    expect(res.statusCode, res.body).toBe(201);
    const p = ZPartnership.parse(res.json());
    expect(p).toMatchObject({ status: 'Invited', partner: { id: null, name: null, email: 'desk@mountain.test' } });
    const token = await tokenIn('desk@mountain.test');
    // Only the hash of the token is stored.
    const stored = (await t.database.db.execute(sql`select invite_token_hash from partnership where id = ${p.id}`)) as unknown as { rows: { invite_token_hash: string }[] };
    expect(stored.rows[0]!.invite_token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect((await supplier.get('/api/partners/?search=mountain')).json().count).toBe(1);

    expect((await agency.get('/api/partner-invitations/not-a-token-at-all-but-long/')).statusCode).toBe(404);
    const info = await agency.get(`/api/partner-invitations/${token}/`);
    expect(info.statusCode, info.body).toBe(200);
    expect(info.json()).toMatchObject({ invitee_side: 'reseller', inviter: { subdomain: 'lakeside' }, commission_bp: 1000, offer_count: 1, currency: 'CHF' });
    expect((await supplier.post(`/api/partner-invitations/${token}/accept/`)).statusCode).toBe(400);
    const accepted = await agency.post(`/api/partner-invitations/${token}/accept/`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ id: p.id, status: 'Active', side: 'reseller', partner: { subdomain: 'lakeside' } });
    expect((await agency.post(`/api/partner-invitations/${token}/accept/`)).statusCode).toBe(404);
    const a = ZPartnership.parse((await supplier.get(`/api/partners/${p.id}/`)).json());
    const b = ZPartnership.parse((await agency.get(`/api/partners/${p.id}/`)).json());
    expect(contractOf(a)).toEqual(contractOf(b));
    expect(a.partner).toMatchObject({ subdomain: 'mountain-agency' });
    expect((await third.get(`/api/partners/${p.id}/`)).statusCode).toBe(404);
  });

  it('a reseller invites a supplier by e-mail, which declines', async () => {
    const offers = await agency.post('/api/partners/', { partner_type: 'Suppliers', email: 'boss@stranger.test', offers: [{ experience_id: kayak.id }] });
    expect(offers.statusCode).toBe(400);
    const res = await agency.post('/api/partners/', { partner_type: 'Suppliers', email: 'boss@stranger.test' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ side: 'reseller', can_edit: false });
    const token = await tokenIn('boss@stranger.test');
    expect((await third.get(`/api/partner-invitations/${token}/`)).json().invitee_side).toBe('supplier');
    expect((await third.post(`/api/partner-invitations/${token}/decline/`)).statusCode).toBe(204);
    expect((await agency.get(`/api/partners/${res.json().id}/`)).json().status).toBe('Declined');
    expect((await third.get(`/api/partners/${res.json().id}/`)).statusCode).toBe(404);
  });
});

describe('access', () => {
  it('needs the Manage stores permission set and the plan feature partners', async () => {
    const role = await supplier.post('/api/roles/', { name: 'Guides', permission_sets: [] });
    expect(role.statusCode, role.body).toBe(201);
    const { member } = await inviteMember(t.app, sink, supplier, 'lakeside', 'guide@lakeside.test', role.json().id);
    const denied = await member.get('/api/partners/');
    expect(denied.statusCode).toBe(403);
    expect(errorOf(denied).code).toBe('permission_denied');

    const [row] = await t.database.db.select({ id: baseAccount.id }).from(baseAccount).where(eq(baseAccount.subdomain, 'stranger'));
    await t.database.db.update(baseAccount).set({ subscription_tier_id: 'supplier-starter' }).where(eq(baseAccount.id, row!.id));
    const plan = await third.get('/api/partners/');
    expect(plan.statusCode).toBe(403);
    expect(errorOf(plan).code).toBe('plan_required');
  });
});
