import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customer } from '../src/db/schema';
import type { TenantCtx } from '../src/lib/crud';
import { listCsv } from '../src/lib/list-export';
import { inTenant } from '../src/lib/tenancy';
import { pageCustomers } from '../src/modules/orders/customers';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * A CSV export reads its list in pages of 500. A customer added by someone else between two pages
 * (another connection, so on a PostgreSQL server only) shifts the later pages by one: read
 * committed, the last row of the first page comes again. The export's snapshot (one REPEATABLE
 * READ transaction) reads every page as the first saw the database: each row once.
 */
const onServer = Boolean(process.env.TEST_DATABASE_URL);
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let accountId: string;
let currency: string;

beforeAll(async () => {
  if (!onServer) return;
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'snapshot', currency: 'CHF' });
  const me = (await owner.get('/api/users/me/')).json();
  accountId = me.base_account.id;
  currency = me.base_account.currency;
  await inTenant(t.database.db, accountId, (tx) =>
    tx.insert(customer).values(Array.from({ length: 600 }, (_, i) => ({ account_id: accountId, email: `zed${i}@example.com`, first_name: 'Zed', last_name: `Zed${String(i).padStart(3, '0')}` }))),
  );
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

/** The customers' e-mails as the export reads them, with a customer added after the first page. */
async function exportWhileAdding(snapshot: boolean, added: string) {
  const csv = await inTenant(
    t.database.db,
    accountId,
    (tx) => {
      const ctx: TenantCtx = { tx, accountId, currency, userId: '' };
      return listCsv([{ header: 'email', value: (c: { email: string }) => c.email }], async (limit, offset) => {
        const page = await pageCustomers(ctx, undefined, limit, offset);
        // Someone at the desk adds a customer whose name sorts first, through the API (its own connection).
        if (offset === 0) expect((await owner.post('/api/customers/', { email: added, first_name: 'Ada', last_name: 'Aaron' })).statusCode).toBe(201);
        return page;
      });
    },
    { snapshot },
  );
  return csv.trimEnd().split('\r\n').slice(1);
}

describe.runIf(onServer)('a list exported in pages while it changes', () => {
  it('repeats a row without the snapshot (the race the snapshot prevents)', async () => {
    const emails = await exportWhileAdding(false, 'first@example.com');
    // 600 rows read in two pages as 601: zed499 twice, the new row having pushed it onto page two.
    expect(emails).toHaveLength(601);
    expect(new Set(emails).size).toBe(600);
    expect(emails).not.toContain('first@example.com');
    expect(emails.filter((e) => e === 'zed499@example.com')).toHaveLength(2);
  });

  it('reads each row once with the snapshot', async () => {
    const emails = await exportWhileAdding(true, 'second@example.com');
    // The snapshot was taken before the second customer was added (first@ was there already).
    expect(emails).toHaveLength(601);
    expect(new Set(emails).size).toBe(601);
    expect(emails).not.toContain('second@example.com');
  });
});
