import { writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openDatabase, type Database } from '../src/db/client';
import { subscriptionTier, systemSetting } from '../src/db/schema';
import { todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestDatabase, testConfig, type TestDatabase } from './harness';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * The application's connections run as tourdesk_server: what requests need, nothing more. It
 * cannot read the signing keys nor write the plans; the owner (migrations, start-up) can.
 */
const rows = async (db: Database['db'], query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
const denied = { cause: { code: '42501' } };

let testDb: TestDatabase;
let sink: MailSink;
beforeAll(async () => {
  testDb = await createTestDatabase();
  sink = await startMailSink();
});
afterAll(async () => {
  await testDb?.drop();
  await sink?.close();
});

describe('the application’s database role', () => {
  it('is tourdesk_server, and may neither read the signing keys nor write the plans', async () => {
    const { db } = testDb.database;
    expect(await rows(db, sql`select current_user as who`)).toEqual([{ who: 'tourdesk_server' }]);
    await expect(db.select().from(systemSetting)).rejects.toMatchObject(denied);
    await expect(db.insert(systemSetting).values({ key: 'planted', value: 'x' })).rejects.toMatchObject(denied);
    await expect(db.insert(subscriptionTier).values({ id: 'free-for-all', name: 'Everything', kind: 'supplier', features: ['experiences'] })).rejects.toMatchObject(denied);
    await expect(db.update(subscriptionTier).set({ monthly_price: 0 })).rejects.toMatchObject(denied);
    await expect(db.delete(subscriptionTier)).rejects.toMatchObject(denied);
    await expect(db.execute(sql`create table planted (id int)`)).rejects.toMatchObject(denied);
    // It reads the plans (a caller's features come from them).
    expect((await db.select().from(subscriptionTier)).length).toBeGreaterThan(0);
    // The owner may do all of it: the key is read at start through asOwner().
    expect(await testDb.database.asOwner((tx) => rows(tx, sql`select current_user = 'tourdesk_server' as app`))).toEqual([{ app: false }]);
  });
});

describe('signing keys', () => {
  const keyA = 'a'.repeat(40);
  const keyB = 'b'.repeat(40);
  let apps: FastifyInstance[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
    apps = [];
  });
  const appWith = async (env: Record<string, string>) => {
    const app = await buildApp({ config: testConfig({ SMTP_URL: sink.url, ...env }), database: testDb.database });
    await app.ready();
    apps.push(app);
    return app;
  };
  const me = (app: FastifyInstance, token: string) =>
    app.inject({ method: 'GET', url: '/api/users/me/', headers: { host: 'keys.localhost', cookie: `access_token=${token}` } });
  const headerOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { kid?: string };

  it('rotate without signing anyone out: the new key signs, the old one still checks until it is dropped', async () => {
    const before = await appWith({ JWT_SECRET: keyA });
    const owner = await createOrganisation(before, sink, { subdomain: 'keys' });
    const oldToken = owner.cookie('access_token')!;
    expect((await me(before, oldToken)).statusCode).toBe(200);

    const rotated = await appWith({ JWT_SECRET: `${keyB} ${keyA}` });
    expect((await me(rotated, oldToken)).statusCode).toBe(200);
    const refreshed = await rotated.inject({ method: 'POST', url: '/api/jwt/refresh/', headers: { host: 'keys.localhost', origin: 'http://keys.localhost', cookie: `refresh_token=${owner.cookie('refresh_token')}` } });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const newToken = refreshed.cookies.find((c) => c.name === 'access_token')!.value;
    expect(headerOf(newToken).kid).not.toBe(headerOf(oldToken).kid);
    expect(headerOf(newToken).kid).toMatch(/^[0-9a-f]{16}$/);

    // The old key dropped: its tokens end, the new ones live on. A file holds the keys as well as the variable.
    const file = path.join(tmpdir(), `keys-${randomBytes(4).toString('hex')}`);
    writeFileSync(file, `${keyB}\n`);
    const after = await appWith({ JWT_SECRET_FILE: file });
    expect((await me(after, oldToken)).statusCode).toBe(401);
    expect((await me(after, newToken)).statusCode).toBe(200);
  });
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('an application with a login role of its own', () => {
  it('serves sign-up, sign-in and a hold as a member of tourdesk_server, with the owner’s URL only for start-up', async () => {
    const login = `tourdesk_web_${randomBytes(3).toString('hex')}`;
    await testDb.database.asOwner((tx) => tx.execute(sql.raw(`create role ${login} login in role tourdesk_server`)));
    const url = new URL(testDb.url!);
    url.username = login;
    const database = await openDatabase({ url: url.toString(), ownerUrl: testDb.url, poolSize: 4 });
    const app = await buildApp({ config: testConfig({ SMTP_URL: sink.url }), database });
    await app.ready();
    try {
      expect(await rows(database.db, sql`select session_user as login, current_user as role`)).toEqual([{ login, role: 'tourdesk_server' }]);
      // Even back as itself, the login role has only what tourdesk_server has.
      await expect(
        database.db.transaction(async (tx) => {
          await tx.execute(sql`set local role none`);
          expect(await rows(tx as unknown as Database['db'], sql`select current_user as who`)).toEqual([{ who: login }]);
          await tx.select().from(systemSetting);
        }),
      ).rejects.toMatchObject(denied);
      const owner = await createOrganisation(app, sink, { subdomain: 'ownrole' });
      const exp = await sellableExperience(owner, 'Least privilege tour');
      expect((await owner.patch(`/api/experiences/${exp.id}/`, { status: 'Active' })).statusCode).toBe(200);
      const slots = (await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${todayIn('UTC')}`)).json() as { id: string }[];
      const later = (await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10)}`)).json() as { id: string }[];
      const slot = (slots[0] ?? later[0])!;
      const held = await owner.post('/api/cart/lines/', { slot: slot.id, quantities: { [exp.category]: 2 } });
      expect(held.statusCode, held.body).toBe(201);
    } finally {
      await app.close();
      await database.close();
      await testDb.database.asOwner((tx) => tx.execute(sql.raw(`drop owned by ${login}; drop role ${login}`)));
    }
  });
});
