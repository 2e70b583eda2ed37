import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness';
import { BASE, Browser, tenantHost } from './http-client';
import { createOrganisation, inviteMember, PASSWORD, signIn } from './identity-fixtures';
import { linkIn, startMailSink, type MailSink } from './mail-sink';

let t: TestApp;
let sink: MailSink;

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url, LOGIN_LIMIT_PER_EMAIL: '4', LOGIN_LIMIT_PER_IP: '1000' } });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const errorOf = (res: { json(): unknown }) => (res.json() as { errors: { code: string; detail: string; attr: string | null }[] }).errors[0]!;

describe('sign-up and activation', () => {
  it('creates an inactive owner of a new organisation and e-mails an activation link that works once', async () => {
    const b = new Browser(t.app, BASE);
    const res = await b.post('/api/users/register/', {
      email: 'Ada@Alps.test',
      password: PASSWORD,
      organisation_name: 'Alps Adventures',
      kind: 'supplier',
      subdomain: 'alps',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ email: 'ada@alps.test', subdomain: 'alps' });

    const early = await b.post('/api/jwt/create/', { email: 'ada@alps.test', password: PASSWORD });
    expect(early.statusCode).toBe(401);
    expect(errorOf(early).detail).toMatch(/not active yet/);

    const mail = await sink.latest('ada@alps.test', /Activate/);
    const { uid, token, url } = linkIn(mail);
    expect(url.pathname).toMatch(/^\/auth\/activate\//);
    expect((await b.post('/api/users/activation/', { uid, token })).statusCode).toBe(204);
    const again = await b.post('/api/users/activation/', { uid, token });
    expect(again.statusCode).toBe(400);
    expect(errorOf(again).attr).toBe('token');

    await signIn(b, 'ada@alps.test', 'alps');
    const me = await b.get('/api/users/me/');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      email: 'ada@alps.test',
      role: { name: 'Owner', is_owner: true },
      base_account: { subdomain: 'alps', kind: 'supplier' },
      cart: null,
    });
    expect(me.json().role.permission_sets).toHaveLength(9);
    expect(me.json().base_account.active_subscription_features).toContain('team');
    const info = await b.get('/api/app-info/');
    expect(info.json().permission_sets.map((s: { title: string }) => s.title)).toContain('View experiences');
  });

  it.each([
    ['ab', /at least 3/],
    ['www', /reserved/],
    ['admin', /reserved/],
    ['-acme', /starts and ends/],
    ['acme_co', /lowercase letters, digits and hyphens/],
    ['a'.repeat(64), /at most 63/],
  ])('refuses the subdomain %s', async (subdomain, message) => {
    const res = await new Browser(t.app).post('/api/users/register/', {
      email: `x-${subdomain.length}@x.test`,
      password: PASSWORD,
      organisation_name: 'Xx',
      kind: 'supplier',
      subdomain,
    });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toMatchObject({ attr: 'subdomain' });
    expect(errorOf(res).detail).toMatch(message);
  });

  it('tells whether a subdomain is free as the user types, and refuses a taken one', async () => {
    const b = new Browser(t.app);
    expect((await b.get('/api/subdomains/check/?subdomain=alps')).json()).toMatchObject({ available: false, reason: 'This subdomain is taken.' });
    expect((await b.get('/api/subdomains/check/?subdomain=Fresh-One')).json()).toMatchObject({ subdomain: 'fresh-one', available: true });
    expect((await b.get('/api/subdomains/check/?subdomain=api')).json()).toMatchObject({ available: false, reason: 'This subdomain is reserved.' });
    const taken = await b.post('/api/users/register/', { email: 'other@x.test', password: PASSWORD, organisation_name: 'Xx', kind: 'supplier', subdomain: 'alps' });
    expect(taken.statusCode).toBe(400);
    expect(errorOf(taken)).toMatchObject({ attr: 'subdomain', detail: 'This subdomain is taken.' });
  });

  it('answers a sign-up with a known e-mail (in any case) as any other, creates nothing, and tells the address’s owner', async () => {
    const form = (email: string, subdomain: string) => ({ email, password: PASSWORD, organisation_name: 'Yy', kind: 'affiliate', subdomain });
    const known = await new Browser(t.app).post('/api/users/register/', form('ADA@alps.test', 'yonder'));
    const fresh = await new Browser(t.app).post('/api/users/register/', form('newcomer@alps.test', 'hither'));
    expect([known.statusCode, fresh.statusCode]).toEqual([201, 201]);
    expect(Object.keys(known.json()).sort()).toEqual(Object.keys(fresh.json()).sort());
    expect(known.json()).toEqual({ email: 'ada@alps.test', subdomain: 'yonder' });
    expect((await new Browser(t.app).get('/api/subdomains/check/?subdomain=yonder')).json()).toMatchObject({ available: true });
    await sink.latest('ada@alps.test', /You already have a Tourdesk account/);
    await sink.latest('newcomer@alps.test', /Activate/);
  });

  it('answers resend_activation and reset_password the same whether or not the e-mail exists', async () => {
    const b = new Browser(t.app);
    const before = sink.messages.length;
    for (const email of ['nobody@nowhere.test', 'ada@alps.test']) {
      expect((await b.post('/api/users/resend_activation/', { email })).statusCode).toBe(204);
      expect((await b.post('/api/users/reset_password/', { email })).statusCode).toBe(204);
    }
    // Only the existing, active account got a (reset) message; nobody@ got nothing.
    await sink.latest('ada@alps.test', /Reset your/);
    expect(sink.countTo('nobody@nowhere.test')).toBe(0);
    expect(sink.messages.length).toBe(before + 1);
  });
});

describe('sessions', () => {
  let owner: Browser;
  beforeAll(async () => {
    owner = await createOrganisation(t.app, sink, { subdomain: 'sessions' });
  });

  it('sets httpOnly, SameSite cookies on the organisation’s own host after the hand-off', async () => {
    const b = new Browser(t.app, BASE);
    const login = await b.post('/api/jwt/create/', { email: 'owner@sessions.test', password: PASSWORD });
    expect(login.cookies.find((c) => c.name === 'access_token')).toBeUndefined();
    const home = login.cookies.find((c) => c.name === 'home_org');
    expect(home?.value).toBe('sessions');
    const code = new URL(login.json().redirect_url).searchParams.get('code');
    b.on(tenantHost('sessions'));
    const handoff = await b.post('/api/jwt/handoff/', { code });
    const access = handoff.cookies.find((c) => c.name === 'access_token')!;
    const refresh = handoff.cookies.find((c) => c.name === 'refresh_token')!;
    expect(access).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(refresh).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/' });
    // A hand-off code works once, and only on its own organisation's host.
    expect((await b.post('/api/jwt/handoff/', { code })).statusCode).toBe(400);
  });

  it('marks cookies Secure outside localhost', async () => {
    const b = new Browser(t.app, 'sessions.example.com');
    const login = await b.post('/api/jwt/create/', { email: 'owner@sessions.test', password: PASSWORD });
    expect(login.statusCode).toBe(200);
    expect(login.cookies.find((c) => c.name === 'home_org')?.secure).toBe(true);
  });

  it('verifies a live session and refuses without one', async () => {
    expect((await owner.post('/api/jwt/verify/')).statusCode).toBe(200);
    expect((await new Browser(t.app, tenantHost('sessions')).post('/api/jwt/verify/')).statusCode).toBe(401);
  });

  it('rotates the refresh token, and a replayed old one revokes the whole session', async () => {
    const b = await signIn(new Browser(t.app), 'owner@sessions.test', 'sessions');
    const first = b.cookie('refresh_token')!;
    expect((await b.post('/api/jwt/refresh/')).statusCode).toBe(200);
    const second = b.cookie('refresh_token')!;
    expect(second).not.toBe(first);
    expect(second.split('.')[0]).toBe(first.split('.')[0]); // same session, new secret
    expect((await b.post('/api/jwt/refresh/')).statusCode).toBe(200);

    // An attacker replays the first token (older than the grace for concurrent tabs).
    const thief = new Browser(t.app, tenantHost('sessions'));
    thief.setCookie('refresh_token', first, '/api/');
    expect((await thief.post('/api/jwt/refresh/')).statusCode).toBe(401);
    // The legitimate browser is signed out too: the session is gone.
    expect((await b.post('/api/jwt/refresh/')).statusCode).toBe(401);
    expect((await b.get('/api/users/me/')).statusCode).toBe(401);
  });

  it('lets two tabs that refresh at the same moment both keep the session', async () => {
    const b = await signIn(new Browser(t.app), 'owner@sessions.test', 'sessions');
    const token = b.cookie('refresh_token')!;
    const tab = new Browser(t.app, tenantHost('sessions'));
    tab.setCookie('refresh_token', token, '/api/');
    const [x, y] = await Promise.all([b.post('/api/jwt/refresh/'), tab.post('/api/jwt/refresh/')]);
    expect([x.statusCode, y.statusCode]).toEqual([200, 200]);
    expect((await b.post('/api/jwt/refresh/')).statusCode).toBe(200);
  });

  it('signs out: the session is revoked and its cookies cleared', async () => {
    const b = await signIn(new Browser(t.app), 'owner@sessions.test', 'sessions');
    const refreshToken = b.cookie('refresh_token')!;
    const access = b.cookie('access_token')!;
    expect((await b.post('/api/logout/')).statusCode).toBe(204);
    expect(b.cookie('access_token')).toBeUndefined();
    const replay = new Browser(t.app, tenantHost('sessions'));
    replay.setCookie('access_token', access);
    replay.setCookie('refresh_token', refreshToken, '/api/');
    expect((await replay.get('/api/users/me/')).statusCode).toBe(401);
    expect((await replay.post('/api/jwt/refresh/')).statusCode).toBe(401);
  });

  it('renews a session only on its own host: the bare host and another organisation’s refuse its cookies', async () => {
    const b = await signIn(new Browser(t.app), 'owner@sessions.test', 'sessions');
    const refreshToken = b.cookie('refresh_token')!;
    const access = b.cookie('access_token')!;
    for (const host of ['localhost', tenantHost('alps')]) {
      const copy = new Browser(t.app, host);
      copy.setCookie('refresh_token', refreshToken, '/api/');
      copy.setCookie('access_token', access);
      expect((await copy.post('/api/jwt/refresh/')).statusCode, host).toBe(401);
      expect((await copy.get('/api/users/me/')).statusCode, host).toBe(401);
    }
    // Refused elsewhere, not revoked: on its own host the session goes on.
    expect((await b.post('/api/jwt/refresh/')).statusCode).toBe(200);
    expect((await b.get('/api/users/me/')).statusCode).toBe(200);
  });

  it('refuses a session on another organisation’s host', async () => {
    const access = owner.cookie('access_token')!;
    const elsewhere = new Browser(t.app, tenantHost('alps'));
    elsewhere.setCookie('access_token', access);
    const res = await elsewhere.get('/api/users/me/');
    expect(res.statusCode).toBe(401);
  });

  it('sends a visitor of another organisation to their own, and others back to sign-in', async () => {
    const b = new Browser(t.app, BASE);
    b.setCookie('home_org', 'sessions', '/api/');
    const away = await b.get(`/api/sso/resume/?next=${encodeURIComponent('http://alps.localhost:3000/dashboard')}`);
    expect(away.statusCode).toBe(302);
    expect(away.headers.location).toBe('http://sessions.localhost:3000/dashboard');
    const fresh = await new Browser(t.app, BASE).get(`/api/sso/resume/?next=${encodeURIComponent('http://alps.localhost:3000/x')}`);
    expect(fresh.headers.location).toBe('http://alps.localhost:3000/auth/login?sso=checked');
    const open = await b.get(`/api/sso/resume/?next=${encodeURIComponent('https://evil.test/phish')}`);
    expect(open.headers.location).toBe('http://localhost:3000/auth/login');
  });
});

describe('passwords and e-mail', () => {
  it('resets a forgotten password from the e-mailed link and signs out every session', async () => {
    const owner = await createOrganisation(t.app, sink, { subdomain: 'resets' });
    await new Browser(t.app).post('/api/users/reset_password/', { email: 'owner@resets.test' });
    const { uid, token, url } = linkIn(await sink.latest('owner@resets.test', /Reset your/));
    expect(url.pathname).toMatch(/^\/auth\/reset-password\//);
    const weak = await new Browser(t.app).post('/api/users/reset_password_confirm/', { uid, token, new_password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(errorOf(weak).attr).toBe('new_password');
    expect((await new Browser(t.app).post('/api/users/reset_password_confirm/', { uid, token, new_password: 'a brand new secret' })).statusCode).toBe(204);
    expect((await owner.get('/api/users/me/')).statusCode).toBe(401);
    expect((await new Browser(t.app).post('/api/jwt/create/', { email: 'owner@resets.test', password: PASSWORD })).statusCode).toBe(401);
    await signIn(new Browser(t.app), 'owner@resets.test', 'resets', 'a brand new secret');
  });

  it('changes the password with the current one, keeps this session and ends the others', async () => {
    const a = await createOrganisation(t.app, sink, { subdomain: 'pw-change' });
    const other = await signIn(new Browser(t.app), 'owner@pw-change.test', 'pw-change');
    const wrong = await a.post('/api/users/set_password/', { current_password: 'nope', new_password: 'another secret 1' });
    expect(wrong.statusCode).toBe(400);
    expect(errorOf(wrong).attr).toBe('current_password');
    expect((await a.post('/api/users/set_password/', { current_password: PASSWORD, new_password: 'another secret 1' })).statusCode).toBe(204);
    expect((await a.get('/api/users/me/')).statusCode).toBe(200);
    expect((await other.get('/api/users/me/')).statusCode).toBe(401);
    await sink.latest('owner@pw-change.test', /password was changed/);
  });

  it('changes the sign-in e-mail with the password, and by the reset-email link, each once the link sent to the new address is followed', async () => {
    const a = await createOrganisation(t.app, sink, { subdomain: 'mailchange' });
    expect((await a.post('/api/users/set_email/', { current_password: PASSWORD, new_email: 'ada@alps.test' })).statusCode).toBe(400);
    expect((await a.post('/api/users/set_email/', { current_password: PASSWORD, new_email: 'new@mailchange.test' })).statusCode).toBe(204);
    await sink.latest('owner@mailchange.test', /asked to change/);
    expect((await a.get('/api/users/me/')).json()).toMatchObject({ email: 'owner@mailchange.test', pending_email: 'new@mailchange.test' });
    const confirm = linkIn(await sink.latest('new@mailchange.test', /Confirm/));
    expect((await new Browser(t.app).post('/api/users/confirm_email/', { uid: confirm.uid, token: confirm.token })).statusCode).toBe(204);
    await sink.latest('owner@mailchange.test', /e-mail address was changed/);
    expect((await a.get('/api/users/me/')).json().email).toBe('new@mailchange.test');

    await new Browser(t.app).post('/api/users/reset_email/', { email: 'new@mailchange.test' });
    const { uid, token } = linkIn(await sink.latest('new@mailchange.test', /Change the e-mail/));
    expect((await new Browser(t.app).post('/api/users/reset_email_confirm/', { uid, token, new_email: 'third@mailchange.test' })).statusCode).toBe(204);
    const third = linkIn(await sink.latest('third@mailchange.test', /Confirm/));
    expect((await new Browser(t.app).post('/api/users/confirm_email/', { uid: third.uid, token: third.token })).statusCode).toBe(204);
    await signIn(new Browser(t.app), 'third@mailchange.test', 'mailchange');
  });

  it('updates the profile name, and deletes an account only with the password and never the last owner', async () => {
    const a = await createOrganisation(t.app, sink, { subdomain: 'profile' });
    const renamed = await a.patch('/api/users/me/', { first_name: 'Renate' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().first_name).toBe('Renate');
    expect((await a.delete('/api/users/me/', { current_password: 'wrong' })).statusCode).toBe(400);
    const last = await a.delete('/api/users/me/', { current_password: PASSWORD });
    expect(last.statusCode).toBe(409);
    expect(errorOf(last).detail).toMatch(/last owner/);
  });
});

describe('throttling and request forgery', () => {
  it('throttles sign-in per e-mail with 429 and Retry-After, and never says whether the e-mail exists', async () => {
    await createOrganisation(t.app, sink, { subdomain: 'throttle' });
    const b = new Browser(t.app);
    const unknown = await b.post('/api/jwt/create/', { email: 'ghost@nowhere.test', password: 'x' });
    const wrongPw = await b.post('/api/jwt/create/', { email: 'owner@throttle.test', password: 'x' });
    expect(errorOf(unknown).detail).toBe(errorOf(wrongPw).detail);
    for (let i = 0; i < 3; i++) await b.post('/api/jwt/create/', { email: 'owner@throttle.test', password: 'x' });
    const blocked = await b.post('/api/jwt/create/', { email: 'owner@throttle.test', password: PASSWORD });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(errorOf(blocked).code).toBe('throttled');
  });

  it('refuses a cookie-authenticated write from another origin, or with no origin at all', async () => {
    const a = await createOrganisation(t.app, sink, { subdomain: 'csrf' });
    const forged = await a.request('POST', '/api/roles/', { name: 'Evil', permission_sets: [] }, { origin: 'http://evil.test' });
    expect(forged.statusCode).toBe(403);
    const bare = await t.app.inject({
      method: 'POST',
      url: '/api/roles/',
      headers: { host: tenantHost('csrf'), cookie: `access_token=${a.cookie('access_token')}` },
      payload: { name: 'Evil', permission_sets: [] },
    });
    expect(bare.statusCode).toBe(403);
    expect((await a.post('/api/roles/', { name: 'Fine', permission_sets: [] })).statusCode).toBe(201);
  });
});

describe('roles and team members', () => {
  let owner: Browser;
  let viewerRoleId: string;
  beforeAll(async () => {
    owner = await createOrganisation(t.app, sink, { subdomain: 'team' });
  });

  it('creates, lists, renames and deletes roles, refusing unknown permission sets and duplicate names', async () => {
    const created = await owner.post('/api/roles/', { name: 'Viewer', permission_sets: ['view_experiences'] });
    expect(created.statusCode).toBe(201);
    viewerRoleId = created.json().id;
    expect(created.json().permission_sets).toEqual([{ id: 'view_experiences', title: 'View experiences', codenames: ['view_experience'] }]);
    const bad = await owner.post('/api/roles/', { name: 'Bad', permission_sets: ['launch_rockets'] });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).attr).toBe('permission_sets');
    const dup = await owner.post('/api/roles/', { name: 'viewer', permission_sets: [] });
    expect(errorOf(dup)).toMatchObject({ attr: 'name' });
    const list = (await owner.get('/api/roles/')).json();
    expect(list.results.map((r: { name: string }) => r.name)).toEqual(['Owner', 'Viewer']);
    expect(list.results[0].member_count).toBe(1);
    const temp = (await owner.post('/api/roles/', { name: 'Temp', permission_sets: [] })).json();
    expect((await owner.patch(`/api/roles/${temp.id}/`, { name: 'Temporary' })).json().name).toBe('Temporary');
    expect((await owner.delete(`/api/roles/${temp.id}/`)).statusCode).toBe(204);
    expect((await owner.get(`/api/roles/${temp.id}/`)).statusCode).toBe(404);
  });

  it('keeps the Owner role whole and undeletable', async () => {
    const ownerRole = (await owner.get('/api/roles/')).json().results[0];
    expect((await owner.patch(`/api/roles/${ownerRole.id}/`, { permission_sets: ['view_experiences'] })).statusCode).toBe(400);
    expect((await owner.delete(`/api/roles/${ownerRole.id}/`)).statusCode).toBe(409);
  });

  it('invites a member who sets a password and then holds only the role’s permissions', async () => {
    const { member, id } = await inviteMember(t.app, sink, owner, 'team', 'mia@team.test', viewerRoleId);
    const me = (await member.get('/api/users/me/')).json();
    expect(me.role).toMatchObject({ name: 'Viewer', is_owner: false });
    const denied = await member.get('/api/roles/');
    expect(denied.statusCode).toBe(403);
    expect(errorOf(denied).code).toBe('permission_denied');
    expect((await member.get('/api/team-members/')).statusCode).toBe(403);
    expect((await member.get('/api/app-info/')).statusCode).toBe(200);

    const inUse = await owner.delete(`/api/roles/${viewerRoleId}/`);
    expect(inUse.statusCode).toBe(409);
    expect(errorOf(inUse).detail).toMatch(/assigned to 1 member/);

    const members = (await owner.get('/api/team-members/?search=mia')).json();
    expect(members.results).toEqual([expect.objectContaining({ id, status: 'active', role: expect.objectContaining({ name: 'Viewer' }) })]);
  });

  it('lists an invited member as invited until they accept, and can send the invitation again', async () => {
    const invite = await owner.post('/api/team-members/', { email: 'late@team.test', role: viewerRoleId });
    expect(invite.json().status).toBe('invited');
    const first = linkIn(await sink.latest('late@team.test', /invited you/));
    expect((await owner.post(`/api/team-members/${invite.json().id}/resend_invitation/`)).statusCode).toBe(200);
    // The first link stopped working when a new one was sent.
    const stale = await new Browser(t.app).post('/api/users/accept_invitation/', { uid: first.uid, token: first.token, new_password: PASSWORD });
    expect(stale.statusCode).toBe(400);
    const invited = await new Browser(t.app).post('/api/jwt/create/', { email: 'late@team.test', password: PASSWORD });
    expect(invited.statusCode).toBe(401);
    expect((await owner.get('/api/team-members/?status=invited')).json().count).toBe(1);
  });

  it('changes a member’s role, deactivates them (ending their sessions) and removes them', async () => {
    const { member, id } = await inviteMember(t.app, sink, owner, 'team', 'sam@team.test', viewerRoleId);
    const ownerRole = (await owner.get('/api/roles/')).json().results[0];
    expect((await owner.patch(`/api/team-members/${id}/`, { role: ownerRole.id })).json().role.name).toBe('Owner');
    expect((await member.get('/api/roles/')).statusCode).toBe(200);
    expect((await owner.patch(`/api/team-members/${id}/`, { is_active: false })).json().status).toBe('deactivated');
    expect((await member.get('/api/users/me/')).statusCode).toBe(401);
    expect((await owner.delete(`/api/team-members/${id}/`)).statusCode).toBe(204);
    expect((await owner.get(`/api/team-members/${id}/`)).statusCode).toBe(404);
  });

  it('never removes, deactivates or demotes the last owner', async () => {
    const me = (await owner.get('/api/users/me/')).json();
    for (const res of [
      await owner.patch(`/api/team-members/${me.id}/`, { role: viewerRoleId }),
      await owner.patch(`/api/team-members/${me.id}/`, { is_active: false }),
      await owner.delete(`/api/team-members/${me.id}/`),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(errorOf(res).detail).toMatch(/last owner/);
    }
  });

  it('keeps one owner when two owners demote each other at the same moment', async () => {
    const org = await createOrganisation(t.app, sink, { subdomain: 'two-owners' });
    const ownerRole = (await org.get('/api/roles/')).json().results[0];
    const helper = (await org.post('/api/roles/', { name: 'Helper', permission_sets: ['manage_users'] })).json();
    const { member: second, id: secondId } = await inviteMember(t.app, sink, org, 'two-owners', 'second@two-owners.test', ownerRole.id);
    const firstId = (await org.get('/api/users/me/')).json().id;
    const results = await Promise.all([
      org.patch(`/api/team-members/${secondId}/`, { role: helper.id }),
      second.patch(`/api/team-members/${firstId}/`, { role: helper.id }),
    ]);
    // The loser is refused: as the last owner (409), or, when it was read after the winner's
    // change, as no longer an Owner (403: only an Owner changes an Owner).
    const [won, lost] = results.map((r) => r.statusCode).sort();
    expect(won).toBe(200);
    expect(lost).toBeOneOf([403, 409]);
    const owners = (await org.get('/api/team-members/')).json().results.filter((m: { role: { is_owner: boolean } }) => m.role?.is_owner);
    expect(owners).toHaveLength(1);
  });
});

describe('reCAPTCHA', () => {
  let verifier: Server;
  let rc: TestApp;
  beforeAll(async () => {
    // A stand-in for Google's siteverify endpoint: accepts the token "human" only.
    verifier = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const params = new URLSearchParams(body);
        const ok = params.get('secret') === 's3cret' && params.get('response') === 'human';
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ success: ok }));
      });
    });
    await new Promise<void>((r) => verifier.listen(0, '127.0.0.1', r));
    const port = (verifier.address() as { port: number }).port;
    rc = await createTestApp({ env: { SMTP_URL: sink.url, RECAPTCHA_SECRET: 's3cret', RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${port}/siteverify` } });
  });
  afterAll(async () => {
    await rc?.close();
    verifier?.close();
  });

  it('guards sign-up and password reset when a secret is configured', async () => {
    const b = new Browser(rc.app);
    const body = { email: 'bot@bots.test', password: PASSWORD, organisation_name: 'Bots', kind: 'supplier', subdomain: 'bots' };
    const noToken = await b.post('/api/users/register/', body);
    expect(noToken.statusCode).toBe(400);
    expect(errorOf(noToken).attr).toBe('recaptcha_token');
    expect((await b.post('/api/users/register/', { ...body, recaptcha_token: 'robot' })).statusCode).toBe(400);
    expect((await b.post('/api/users/register/', { ...body, recaptcha_token: 'human' })).statusCode).toBe(201);
    expect((await b.post('/api/users/reset_password/', { email: 'bot@bots.test' })).statusCode).toBe(400);
    expect((await b.post('/api/recaptcha/verify/', { token: 'human' })).json()).toEqual({ enabled: true, success: true });
  });
});
