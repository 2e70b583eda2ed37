import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as UserQueries from '../src/modules/users/queries';
import type { Db } from '../src/db/client';
import { role, users } from '../src/db/schema';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation, inviteMember } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Two owners demote each other at the same moment. The owner rows are locked (FOR UPDATE) while
 * the "last owner" rule is checked, so one demotion must wait for the other and then be refused.
 * With the lock switched off (here, in this file: lockActiveOwners replaced by the same query
 * without FOR UPDATE) the same race leaves the organisation without an owner: that is what proves
 * this test can fail. PGlite runs one transaction at a time, so the race itself can only happen on
 * the PostgreSQL server (npm run test:db in CI).
 */
const ownerLock = vi.hoisted(() => ({ off: false }));
vi.mock('../src/modules/users/queries', async (importOriginal) => {
  const real = await importOriginal<typeof UserQueries>();
  const { role: roleTable, users: usersTable } = await import('../src/db/schema');
  return {
    ...real,
    async lockActiveOwners(tx: Db, accountId: string) {
      if (!ownerLock.off) return real.lockActiveOwners(tx, accountId);
      const rows = await tx
        .select({ id: usersTable.id })
        .from(usersTable)
        .innerJoin(roleTable, eq(roleTable.id, usersTable.role_id))
        .where(and(eq(usersTable.account_id, accountId), eq(roleTable.is_owner, true), eq(usersTable.is_active, true)))
        .orderBy(asc(usersTable.id));
      return rows.map((r) => r.id);
    },
  };
});
let t: TestApp;
let sink: MailSink;
let first: Browser;
let second: Browser;
const ids: Record<string, string> = {};

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  first = await createOrganisation(t.app, sink, { subdomain: 'race' });
  const roles = (await first.get('/api/roles/')).json().results;
  ids.owner = roles[0].id;
  ids.helper = (await first.post('/api/roles/', { name: 'Helper', permission_sets: ['manage_users'] })).json().id;
  ids.account = (await first.get('/api/users/me/')).json().base_account.id;
  ids.first = (await first.get('/api/users/me/')).json().id;
  const invited = await inviteMember(t.app, sink, first, 'race', 'second@race.test', ids.owner!);
  second = invited.member;
  ids.second = invited.id;
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

async function trial() {
  // Both are owners again before each trial.
  await t.database.db.update(users).set({ role_id: ids.owner }).where(eq(users.account_id, ids.account!));
  await Promise.all([
    first.patch(`/api/team-members/${ids.second}/`, { role: ids.helper }),
    second.patch(`/api/team-members/${ids.first}/`, { role: ids.helper }),
  ]);
  const owners = await t.database.db
    .select({ id: users.id })
    .from(users)
    .innerJoin(role, eq(role.id, users.role_id))
    .where(and(eq(users.account_id, ids.account!), eq(role.is_owner, true)));
  return owners.length;
}

describe('the last-owner rule under concurrency', () => {
  it('always keeps exactly one owner with the lock on', async () => {
    for (let i = 0; i < 8; i++) expect(await trial()).toBe(1);
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))('loses every owner at least once with the lock off', async () => {
    ownerLock.off = true;
    const results: number[] = [];
    try {
      for (let i = 0; i < 8; i++) results.push(await trial());
    } finally {
      ownerLock.off = false;
    }
    expect(results).toContain(0);
  });
});
