import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetOldMailJobs, inTransaction, JOB_SCHEMA, MAIL_FORMAT, QUEUES } from '../src/lib/jobs';
import { APP_MIGRATION } from '../src/database';
import { addDays, todayIn } from '../src/lib/local-time';
import { createTestApp, until, type TestApp } from './harness';
import { Browser, BASE } from './http-client';
import { sellableExperience } from './catalog-fixtures';
import { createOrganisation, PASSWORD } from './identity-fixtures';
import { startMailSink, type CapturedMail, type MailSink } from './mail-sink';

/**
 * E-mail jobs keep ids, never secrets: every e-mail whose link carries a secret (activation,
 * password reset, e-mail change, a member's invitation, a partner's invitation, an order's
 * booking page, the tickets sent again, a waiting list's offer) is queued, delivered to the sink,
 * and then pg-boss's tables (job and archive) of every queue that sends mail are read: none holds
 * a link, a token from a link, or the message's text. The account e-mails and the partner's
 * invitation keep their kind and ids only (the token is minted when sent); jobs of the old format
 * (the text with its link) are never sent in the clear and are forgotten by the migration run.
 */
/** Every queue whose jobs send e-mail. */
const MAIL_QUEUES = [QUEUES.email, QUEUES.orderMail, QUEUES.waitlistMail, QUEUES.voucherMail].map((q) => q.name);
let t: TestApp;
let sink: MailSink;

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

/** Every e-mail job's data, wherever pg-boss keeps it now. */
async function storedMailJobs() {
  const rows: { name: string; data: unknown }[] = [];
  for (const table of ['job', 'archive']) {
    const found = (await t.database.db.execute(
      sql`select name, data from ${sql.raw(`${JOB_SCHEMA}.${table}`)} where name in (${sql.join(
        MAIL_QUEUES.map((n) => sql`${n}`),
        sql`, `,
      )})`,
    )) as unknown as { rows: { name: string; data: unknown }[] };
    rows.push(...found.rows);
  }
  return rows;
}

/** The secrets of a message: each link, and each part of its path, query and fragment long enough to be a token. */
function secretsOf(mail: CapturedMail) {
  const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
  const parts: string[] = [];
  for (const link of links) {
    const url = new URL(link.replace(/<[^>]*>/g, 'x')); // http://<your-subdomain>.… in the partner's invitation
    const pieces = [...url.pathname.split('/'), ...[...url.searchParams.values()].flatMap((v) => v.split('/')), url.hash.slice(1)];
    parts.push(...pieces.filter((p) => p.length >= 16 && !/^[0-9a-f-]{36}$/.test(p)));
  }
  return { links, parts };
}

describe('e-mail jobs keep ids, never secrets', () => {
  it('stores no link, no token and no text of any e-mail that carries a secret', async () => {
    // Activation (createOrganisation follows it).
    const owner = await createOrganisation(t.app, sink, { subdomain: 'mailjobs', currency: 'CHF', time_zone: 'Europe/Zurich' });
    const bare = new Browser(t.app, BASE);
    // Password reset, e-mail change, and a sign-up with an address that has an account.
    expect((await bare.post('/api/users/reset_password/', { email: 'owner@mailjobs.test' })).statusCode).toBeLessThan(300);
    expect((await bare.post('/api/users/reset_email/', { email: 'owner@mailjobs.test' })).statusCode).toBeLessThan(300);
    await bare.post('/api/users/register/', { email: 'owner@mailjobs.test', password: PASSWORD, organisation_name: 'Again', kind: 'supplier', subdomain: 'mailjobs-again' });
    // A member's invitation.
    const roles = (await owner.get('/api/roles/')).json().results as { id: string; is_owner: boolean }[];
    const member = await owner.post('/api/team-members/', { email: 'member@mailjobs.test', role: roles.find((r) => r.is_owner)!.id, first_name: 'Mia', last_name: 'Member' });
    expect(member.statusCode, member.body).toBe(201);
    // A partner's invitation by e-mail.
    const partner = await owner.post('/api/partners/', { partner_type: 'Resellers', email: 'partner@elsewhere.test' });
    expect(partner.statusCode, partner.body).toBe(201);
    // A web order: its confirmation carries the booking page's secret; then staff send its tickets again.
    const tour = await sellableExperience(owner, 'Lake tour');
    expect((await owner.patch(`/api/experiences/${tour.id}/`, { status: 'Active' })).statusCode).toBe(200);
    const store = (await owner.post('/api/stores/', { name: 'Lake shop', slug: 'lake', notify_new_bookings: true, notify_email: 'office@mailjobs.test' })).json();
    await owner.post(`/api/stores/${store.id}/add-experience/`, { experiences: [tour.id] });
    const guest = new Browser(t.app, 'mailjobs.localhost');
    const base = '/api/web-stores/lake';
    const { id: cart, token } = (await guest.post(`${base}/carts/`)).json();
    const date = addDays(todayIn('Europe/Zurich'), 5);
    const slot = (await guest.get(`${base}/experiences/${tour.id}/day/?date=${date}`)).json().slots[0].id;
    expect((await guest.post(`${base}/carts/${cart}/lines/`, { slot, quantities: { [tour.category]: 1 } }, { 'x-cart-token': token })).statusCode).toBe(201);
    const placed = await guest.post(`${base}/orders/`, { cart, customer: { email: 'guest@example.com', first_name: 'Gia', last_name: 'Guest' }, accept_terms: true, payment_option: 'pay_on_site' }, { 'x-cart-token': token });
    expect(placed.statusCode, placed.body).toBe(201);
    const order = placed.json() as { reference: string; manage_url: string };
    await sink.latest('guest@example.com', /Your booking/);
    const orderId = (await owner.get(`/api/orders/?search=${order.reference}`)).json().results[0].id as string;
    const resent = await owner.post(`/api/orders/${orderId}/send-tickets/`);
    expect(resent.statusCode, resent.body).toBeLessThan(300);

    // A waiting list's offer: the time is full, a customer joins its list, a seat is added and offered by e-mail.
    expect((await owner.patch(`/api/start-times/${slot}/`, { capacity: 1 })).statusCode).toBe(200);
    const joined = await guest.post(`${base}/waitlist/`, { slot, email: 'waiter@example.com', name: 'Wanda', seats: 1 });
    expect(joined.statusCode, joined.body).toBe(201);
    expect((await owner.patch(`/api/start-times/${slot}/`, { capacity: 2 })).statusCode).toBe(200);

    const mails = [
      await sink.latest('owner@mailjobs.test', /Activate/),
      await sink.latest('owner@mailjobs.test', /Reset your/),
      await sink.latest('owner@mailjobs.test', /e-mail address/),
      await sink.latest('owner@mailjobs.test', /already have/),
      await sink.latest('member@mailjobs.test', /invited you/),
      await sink.latest('partner@elsewhere.test', /invited your organisation/),
      await sink.latest('guest@example.com', /Your booking/),
      await sink.latest('guest@example.com', /Tickets sent again|Your booking/),
      await sink.latest('office@mailjobs.test', /New booking/),
      await sink.latest('waiter@example.com', /Seats for you/),
    ];
    const jobs = await storedMailJobs();
    expect(jobs.length).toBeGreaterThanOrEqual(mails.length);
    const stored = JSON.stringify(jobs.map((j) => j.data));
    // The jobs hold ids and kinds: no address of the site with a path, no message text.
    expect(stored).not.toMatch(/https?:\/\//);
    expect(stored).not.toMatch(/"text"|"html"/);
    for (const mail of mails) {
      const { links, parts } = secretsOf(mail);
      for (const link of links) expect(stored).not.toContain(link);
      for (const part of parts) expect(stored, `${mail.subject}: ${part}`).not.toContain(part);
      // No sentence of the message either (the first line after the greeting, say).
      for (const line of mail.text.split('\n').filter((l) => l.trim().length > 40)) expect(stored, mail.subject).not.toContain(line.trim());
    }
    // What a job keeps: whom for and its ids; an order's e-mail composes itself from the order when sent.
    expect(new Set(jobs.map((j) => j.name))).toEqual(new Set([QUEUES.email.name, QUEUES.orderMail.name, QUEUES.waitlistMail.name]));
    const linked = new Map<string, string[]>();
    for (const job of jobs as { name: string; data: Record<string, unknown> }[]) {
      if (job.name === QUEUES.orderMail.name) expect(job.data).toMatchObject({ order: expect.any(String), kind: expect.any(String) });
      else if (job.name === QUEUES.waitlistMail.name) expect(job.data).toMatchObject({ entry: expect.any(String) });
      else {
        expect(job.data.v).toBe(MAIL_FORMAT);
        const link = job.data.link as { kind: string } | undefined;
        if (!link) expect(Object.keys(job.data).sort()).toEqual(['sealed', 'subject', 'to', 'v'].concat(job.data.account ? ['account'] : []).sort());
        else {
          // A link's e-mail: its kind and ids, nothing sealed (no key opens what is not there).
          expect(job.data.sealed).toBeUndefined();
          linked.set(job.data.to as string, [...(linked.get(job.data.to as string) ?? []), link.kind]);
        }
      }
    }
    // Every account e-mail with a one-time link, and the partner's invitation, is made when sent.
    expect([...(linked.get('owner@mailjobs.test') ?? [])].sort()).toEqual(['activation', 'email_reset', 'password_reset']);
    expect(linked.get('member@mailjobs.test')).toEqual(['invitation']);
    expect(linked.get('partner@elsewhere.test')).toEqual(['partner_invitation']);
    // The secrets that the links carry were there to find.
    expect(mails.flatMap((m) => secretsOf(m).parts).length).toBeGreaterThanOrEqual(6);
    expect(order.manage_url.split('#')[1]!.length).toBeGreaterThan(16);
  }, 60_000);

  it('never sends an old job whose text is in the clear, and the migration run forgets the old format (sent, failed or waiting in the clear)', async () => {
    const jobs = t.app.jobs;
    const link = 'http://localhost/auth/reset-password/00000000-0000-4000-8000-000000000001/OldTokenSecretxyz0123456789';
    // As the old code stored them: the text in the clear (before sealing), and sealed with its link.
    const plain = await jobs.send(QUEUES.email, { to: 'old-plain@example.com', subject: 'Reset your password', text: `Follow ${link}` });
    await until('the old job is done', async () => {
      const found = (await t.database.db.execute(sql`select state from ${sql.raw(`${JOB_SCHEMA}.job`)} where id = ${plain}::uuid`)) as unknown as { rows: { state: string }[] };
      return found.rows[0]?.state === 'completed';
    });
    expect(sink.countTo('old-plain@example.com')).toBe(0);
    const later = { startAfter: 3600 };
    const waitingPlain = await jobs.send(QUEUES.email, { to: 'old-later@example.com', subject: 'Reset', text: `Follow ${link}` }, later);
    const waitingSealed = await jobs.send(QUEUES.email, { to: 'old-sealed@example.com', subject: 'Reset', sealed: jobs.seal(JSON.stringify({ text: `Follow ${link}` })) }, later);
    const current = await jobs.send(QUEUES.email, { v: MAIL_FORMAT, to: 'new@example.com', subject: 'Reset', link: { kind: 'password_reset', user: '00000000-0000-4000-8000-000000000001', language: 'en' } }, later);

    const forgotten = await t.database.asOwner((tx) => forgetOldMailJobs(inTransaction(tx)));
    expect(forgotten).toBeGreaterThanOrEqual(2);
    const left = (await t.database.db.execute(
      sql`select id::text as id from ${sql.raw(`${JOB_SCHEMA}.job`)} where id in (${plain}::uuid, ${waitingPlain}::uuid, ${waitingSealed}::uuid, ${current}::uuid)`,
    )) as unknown as { rows: { id: string }[] };
    // Kept: the current format, and an old sealed e-mail still to send (asked for during the deployment).
    expect(left.rows.map((r) => r.id).sort()).toEqual([waitingSealed!, current!].sort());
    const old = (await t.database.db.execute(
      sql`select count(*)::int as n from ${sql.raw(`${JOB_SCHEMA}.job`)} where name = ${QUEUES.email.name} and data ? 'text'`,
    )) as unknown as { rows: { n: number }[] };
    expect(old.rows[0]!.n).toBe(0);
    // The format counts in the migration run's fingerprint: the first start of this code runs it (and the purge).
    expect(APP_MIGRATION.fingerprint).toContain(`mail format ${MAIL_FORMAT}`);
  }, 30_000);
});
