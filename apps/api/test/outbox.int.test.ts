import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client';
import { JOB_SCHEMA, QUEUES } from '../src/lib/jobs';
import { queueMail } from '../src/lib/mailer';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation, inviteMember } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * E-mail goes through a transactional outbox (the job queue): written with the change that causes
 * it, delivered by a worker, retried while the SMTP server is down, never lost, never sent twice;
 * a message whose retries are spent is shown to the organisation's Owners, who can send it again.
 */
let t: TestApp;
let sink: MailSink;
let port: number;
let owner: Browser;

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await probe();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await wait(150);
  }
}
const emailJobs = async (to: string) =>
  ((await t.database.db.execute(sql`select state, retry_count from ${sql.raw(JOB_SCHEMA)}.job where name = 'email-send' and data->>'to' = ${to}`)) as unknown as { rows: { state: string; retry_count: number }[] }).rows;

beforeAll(async () => {
  sink = await startMailSink();
  port = Number(new URL(sink.url).port);
  // The SMTP server is tried again after 1 s, 2 s, 4 s … and given up after three retries.
  t = await createTestApp({ env: { SMTP_URL: sink.url, EMAIL_RETRY_DELAY_SECONDS: '1', EMAIL_RETRY_LIMIT: '3' } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'outbox' });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe('the e-mail outbox', () => {
  it('delays the mail while the SMTP server is down, then sends it exactly once', async () => {
    await sink.close();
    const reset = await owner.request('POST', '/api/users/reset_password/', { email: 'owner@outbox.test' }, { origin: 'http://localhost', host: 'localhost' });
    expect(reset.statusCode, reset.body).toBeLessThan(300);
    // Tried and refused: the job waits for its next try, the mail is not lost.
    await until('a failed attempt', async () => (await emailJobs('owner@outbox.test')).find((j) => j.state === 'retry' && j.retry_count >= 1));
    sink = await startMailSink(port);
    const mail = await until('the mail after the server is back', async () => sink.messages.find((m) => m.to.includes('owner@outbox.test') && /password/i.test(m.subject)));
    expect(mail.text).toMatch(/https?:\/\//);
    await until('the job completed', async () => (await emailJobs('owner@outbox.test')).every((j) => j.state === 'completed'));
    await wait(2500);
    expect(sink.messages.filter((m) => m.to.includes('owner@outbox.test') && /password/i.test(m.subject))).toHaveLength(1);
  }, 40_000);

  it('sends nothing when the change that wrote the mail rolls back', async () => {
    const mail = { to: 'never@outbox.test', subject: 'Rolled back', text: 'This change did not happen.' };
    await expect(
      t.database.db.transaction(async (tx) => {
        await queueMail(t.app.jobs, t.app.config, tx as unknown as Db, [mail]);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await t.database.db.transaction((tx) => queueMail(t.app.jobs, t.app.config, tx as unknown as Db, [{ ...mail, to: 'kept@outbox.test', subject: 'Committed' }]));
    await sink.latest('kept@outbox.test', /Committed/);
    expect(await emailJobs('never@outbox.test')).toEqual([]);
    expect(sink.countTo('never@outbox.test')).toBe(0);
  });

  it('shows an e-mail whose retries are spent to the Owners only, and sends it again on request', async () => {
    await sink.close();
    const roles = (await owner.get('/api/roles/')).json().results as { id: string; is_owner: boolean }[];
    const invite = await owner.post('/api/team-members/', { email: 'late@outbox.test', role: roles.find((r) => r.is_owner)!.id, first_name: 'Lea', last_name: 'Late' });
    expect(invite.statusCode, invite.body).toBe(201);
    const failed = await until('the failed job', async () => {
      const page = (await owner.get('/api/jobs/failed/')).json() as { count: number; results: { id: string; recipient: string; summary: string; attempts: number; error: string }[] };
      return page.results.find((j) => j.recipient === 'late@outbox.test');
    });
    expect(failed).toMatchObject({ attempts: 4, summary: expect.stringMatching(/invited you/) });
    expect(failed.error).toMatch(/ECONNREFUSED|connect/i);

    sink = await startMailSink(port);
    const retried = await owner.post(`/api/jobs/failed/${failed.id}/retry/`);
    expect(retried.statusCode, retried.body).toBe(204);
    await sink.latest('late@outbox.test', /invited you/);
    expect((await owner.get('/api/jobs/failed/')).json().results.map((j: { id: string }) => j.id)).not.toContain(failed.id);
    expect((await owner.post(`/api/jobs/failed/${failed.id}/retry/`)).statusCode).toBe(404);
  }, 60_000);

  it('keeps one organisation’s failed jobs from another, and from members who are not Owners', async () => {
    // A failed e-mail of this organisation, failed as the queue fails one.
    const account = (await owner.get('/api/users/me/')).json().base_account.id as string;
    const id = await t.app.jobs.send(QUEUES.email, { account, to: 'kept-apart@outbox.test', subject: 'Ours', text: 'x' }, { startAfter: 3600 });
    await t.database.db.execute(sql`update pgboss.job set state = 'failed', completed_on = now(), output = '{"message":"refused"}' where id = ${id}::uuid`);
    expect((await owner.get('/api/jobs/failed/')).json().results.map((j: { id: string }) => j.id)).toContain(id);
    const other = await createOrganisation(t.app, sink, { subdomain: 'outbox-other' });
    expect((await other.get('/api/jobs/failed/')).json().count).toBe(0);
    expect((await other.post(`/api/jobs/failed/${id}/retry/`)).statusCode).toBe(404);
    const office = await owner.post('/api/roles/', { name: 'Office', permission_sets: ['manage_account'] });
    expect(office.statusCode, office.body).toBe(201);
    const helper = office.json() as { id: string };
    const { member } = await inviteMember(t.app, sink, owner, 'outbox', 'office@outbox.test', helper.id);
    const refused = await member.get('/api/jobs/failed/');
    expect(refused.statusCode).toBe(403);
  });
});
