import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionToken, userIdentity, users } from '../src/db/schema';
import { matchOidcUser } from '../src/modules/oidc/service';
import { createTestApp, type TestApp } from './harness';
import { BASE, Browser } from './http-client';
import { createOrganisation, PASSWORD, signIn } from './identity-fixtures';
import { linkIn, startMailSink, type MailSink } from './mail-sink';

/**
 * Issue 29, "Accounts and plans": changing an account's e-mail (set e-mail, reset e-mail) took
 * effect without a link sent to the new address, and OpenID Connect linked a first sign-in to
 * whatever account held that e-mail, so an attacker who set an unregistered address on their
 * account captured the victim's first SSO sign-in. A new address now counts only once its owner
 * follows the link sent to it; OIDC links only to verified addresses.
 */
let t: TestApp;
let sink: MailSink;
const ISSUER = 'https://sso.example.test';

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url, LOGIN_LIMIT_PER_IP: '1000' } });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const errorOf = (res: { json(): unknown }) => (res.json() as { errors: { code: string; detail: string; attr: string | null }[] }).errors[0]!;
const anyone = () => new Browser(t.app, BASE);
const signInStatus = async (email: string, password = PASSWORD) => (await anyone().post('/api/jwt/create/', { email, password })).statusCode;

describe('changing an account’s e-mail takes effect only through a link sent to the new address', () => {
  it('set e-mail: the new address is pending until its link is followed; the old one keeps working and is told', async () => {
    const a = await createOrganisation(t.app, sink, { subdomain: 'confirm-set' });
    const asked = await a.post('/api/users/set_email/', { current_password: PASSWORD, new_email: 'New@Confirm-Set.test' });
    expect(asked.statusCode, asked.body).toBe(204);

    // Nothing changed yet: the old address signs in, the new one does not; the profile shows it pending.
    const me = (await a.get('/api/users/me/')).json();
    expect(me).toMatchObject({ email: 'owner@confirm-set.test', pending_email: 'new@confirm-set.test' });
    expect(await signInStatus('new@confirm-set.test')).toBe(401);
    expect(await signInStatus('owner@confirm-set.test')).toBe(200);
    const notice = await sink.latest('owner@confirm-set.test', /asked to change/);
    expect(notice.text).toContain('new@confirm-set.test');
    expect(notice.text).not.toMatch(/https?:\/\/\S+\/auth\/confirm-email\//);

    // The link goes to the new address only; the database keeps a hash of its token, never the token.
    const mail = await sink.latest('new@confirm-set.test', /Confirm/);
    const { uid, token, url } = linkIn(mail);
    expect(url.pathname).toMatch(/^\/auth\/confirm-email\//);
    const [row] = await t.database.db.select().from(actionToken).where(eq(actionToken.purpose, 'email_confirm'));
    expect(row).toBeDefined();
    expect(JSON.stringify(row)).not.toContain(token.split('.')[1]);

    expect((await anyone().post('/api/users/confirm_email/', { uid, token })).statusCode).toBe(204);
    expect((await a.get('/api/users/me/')).json()).toMatchObject({ email: 'new@confirm-set.test', pending_email: null });
    await signIn(new Browser(t.app), 'new@confirm-set.test', 'confirm-set');
    expect(await signInStatus('owner@confirm-set.test')).toBe(401);
    // Once only.
    expect((await anyone().post('/api/users/confirm_email/', { uid, token })).statusCode).toBe(400);
  });

  it('reset e-mail: the address chosen from the reset link is pending until its own link is followed', async () => {
    await createOrganisation(t.app, sink, { subdomain: 'confirm-reset' });
    await anyone().post('/api/users/reset_email/', { email: 'owner@confirm-reset.test' });
    const reset = linkIn(await sink.latest('owner@confirm-reset.test', /Change the e-mail/));
    const chosen = await anyone().post('/api/users/reset_email_confirm/', { uid: reset.uid, token: reset.token, new_email: 'third@confirm-reset.test' });
    expect(chosen.statusCode, chosen.body).toBe(204);
    expect(await signInStatus('third@confirm-reset.test')).toBe(401);
    expect(await signInStatus('owner@confirm-reset.test')).toBe(200);

    const { uid, token } = linkIn(await sink.latest('third@confirm-reset.test', /Confirm/));
    expect((await anyone().post('/api/users/confirm_email/', { uid, token })).statusCode).toBe(204);
    await signIn(new Browser(t.app), 'third@confirm-reset.test', 'confirm-reset');
  });

  it('refuses the confirmation when someone else took the address in the meantime', async () => {
    const a = await createOrganisation(t.app, sink, { subdomain: 'confirm-race' });
    expect((await a.post('/api/users/set_email/', { current_password: PASSWORD, new_email: 'owner@confirm-late.test' })).statusCode).toBe(204);
    const { uid, token } = linkIn(await sink.latest('owner@confirm-late.test', /Confirm/));
    await createOrganisation(t.app, sink, { subdomain: 'confirm-late' });
    const late = await anyone().post('/api/users/confirm_email/', { uid, token });
    expect(late.statusCode).toBe(400);
    expect(errorOf(late).detail).toBe('A user with this e-mail address already exists.');
    expect((await a.get('/api/users/me/')).json().email).toBe('owner@confirm-race.test');
  });
});

describe('OpenID Connect links a first sign-in only to a verified address', () => {
  it('an attacker who sets the victim’s address on their account does not capture the victim’s first SSO sign-in', async () => {
    const attacker = await createOrganisation(t.app, sink, { subdomain: 'evil' });
    expect((await attacker.post('/api/users/set_email/', { current_password: PASSWORD, new_email: 'victim@corp.test' })).statusCode).toBe(204);
    // The victim never follows the link; their first SSO sign-in comes.
    await expect(matchOidcUser(t.database.db, { issuer: ISSUER, subject: 'victim', email: 'victim@corp.test', emailVerified: true })).rejects.toMatchObject({
      message: expect.stringMatching(/No Tourdesk account uses victim@corp\.test/),
    });
    expect(await t.database.db.select().from(userIdentity).where(eq(userIdentity.subject, 'victim'))).toEqual([]);
  });

  it('refuses to link an account whose address was never verified, even when the provider verified it', async () => {
    const reg = await anyone().post('/api/users/register/', {
      email: 'owner@unverified.test',
      password: PASSWORD,
      first_name: 'U',
      last_name: 'V',
      organisation_name: 'Unverified',
      kind: 'supplier',
      subdomain: 'unverified',
    });
    expect(reg.statusCode).toBe(201);
    await expect(matchOidcUser(t.database.db, { issuer: ISSUER, subject: 'u-unverified', email: 'owner@unverified.test', emailVerified: true })).rejects.toMatchObject({
      message: 'This account’s e-mail address has not been confirmed yet. Sign in with your password, or follow the link we e-mailed you, then try again.',
    });
    expect(await t.database.db.select().from(userIdentity).where(eq(userIdentity.subject, 'u-unverified'))).toEqual([]);
  });

  it('links a verified account (activated, or its new address confirmed)', async () => {
    await createOrganisation(t.app, sink, { subdomain: 'verified' });
    const [owner] = await t.database.db.select().from(users).where(eq(users.email, 'owner@verified.test'));
    expect(owner!.email_verified_at).not.toBeNull();
    const found = await matchOidcUser(t.database.db, { issuer: ISSUER, subject: 'u-verified', email: 'owner@verified.test', emailVerified: true });
    expect(found.user.id).toBe(owner!.id);
    const renamed = await matchOidcUser(t.database.db, { issuer: ISSUER, subject: 'u-new-address', email: 'new@confirm-set.test', emailVerified: true });
    expect(renamed.user.email).toBe('new@confirm-set.test');
  });
});
