import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userIdentity } from '../src/db/schema';
import { matchOidcUser } from '../src/modules/oidc/service';
import { createTestApp, type TestApp } from './harness';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * OpenID Connect sign-in matches accounts by issuer and subject, never by e-mail alone (the code
 * exchange itself runs in the browser test against a local provider, identity.spec.ts).
 */
let t: TestApp;
let sink: MailSink;
const ISSUER = 'https://sso.example.test';

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  await createOrganisation(t.app, sink, { subdomain: 'sso' });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe('who signs in with OpenID Connect', () => {
  it('refuses an e-mail the provider has not verified, or does not say it verified', async () => {
    await expect(matchOidcUser(t.database.db, { issuer: ISSUER, subject: 'u-1', email: 'owner@sso.test', emailVerified: false })).rejects.toMatchObject({
      message: 'The sign-on provider has not verified this e-mail address.',
    });
    expect(await t.database.db.select().from(userIdentity)).toEqual([]);
  });

  it('links the first sign-in to the account of its verified e-mail, then matches by issuer and subject', async () => {
    const first = await matchOidcUser(t.database.db, { issuer: ISSUER, subject: 'u-1', email: 'OWNER@sso.test', emailVerified: true });
    expect(first.user.email).toBe('owner@sso.test');
    expect(await t.database.db.select({ subject: userIdentity.subject }).from(userIdentity).where(eq(userIdentity.user_id, first.user.id))).toEqual([{ subject: 'u-1' }]);
    // The provider now shows another e-mail, unverified: the subject still names the same person.
    const again = await matchOidcUser(t.database.db, { issuer: ISSUER, subject: 'u-1', email: 'renamed@elsewhere.test', emailVerified: false });
    expect(again.user.id).toBe(first.user.id);
  });

  it('never lets another subject take over an account by its e-mail', async () => {
    await expect(matchOidcUser(t.database.db, { issuer: ISSUER, subject: 'intruder', email: 'owner@sso.test', emailVerified: true })).rejects.toMatchObject({
      message: expect.stringMatching(/another identity at this provider/),
    });
    // Another provider is another issuer: its first sign-in links by verified e-mail again.
    const other = await matchOidcUser(t.database.db, { issuer: 'https://other.example.test', subject: 'u-1', email: 'owner@sso.test', emailVerified: true });
    expect(other.user.email).toBe('owner@sso.test');
    await expect(matchOidcUser(t.database.db, { issuer: ISSUER, subject: 'u-2', email: 'nobody@sso.test', emailVerified: true })).rejects.toMatchObject({
      message: expect.stringMatching(/No Tourdesk account uses/),
    });
  });
});
