import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation, inviteMember } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Nobody grants themselves more than they have: a member with "Manage users" (but not Owner)
 * cannot change their own role, give the Owner role, change the sets of the role they hold, or put
 * into any role a set they do not hold; only an Owner makes, changes or removes Owners; the last
 * Owner stays.
 */
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let admin: Browser;
let adminId: string;
let ownerRole: string;
let adminRole: string;
let viewerRole: string;
let ownerId: string;
const err = (res: { json(): unknown }) => (res.json() as { errors: { code: string; detail: string; attr: string | null }[] }).errors[0]!;

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'ranks' });
  const me = (await owner.get('/api/users/me/')).json();
  ownerRole = me.role.id;
  ownerId = me.id;
  adminRole = (await owner.post('/api/roles/', { name: 'Office', permission_sets: ['manage_users', 'manage_experiences'] })).json().id;
  viewerRole = (await owner.post('/api/roles/', { name: 'Viewer', permission_sets: ['view_experiences'] })).json().id;
  ({ member: admin, id: adminId } = await inviteMember(t.app, sink, owner, 'ranks', 'office@ranks.test', adminRole));
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe('a member who manages users', () => {
  it('cannot change their own role, to anything', async () => {
    const res = await admin.patch(`/api/team-members/${adminId}/`, { role: viewerRole });
    expect(res.statusCode).toBe(403);
    expect(err(res)).toMatchObject({ code: 'permission_denied', attr: 'role' });
  });

  it('cannot give anyone the Owner role, by invitation or change', async () => {
    const invite = await admin.post('/api/team-members/', { email: 'newowner@ranks.test', role: ownerRole, first_name: 'N', last_name: 'O' });
    expect(invite.statusCode).toBe(403);
    expect(err(invite).detail).toBe('Only an Owner can make someone an Owner.');
    const { id: viewerId } = await inviteMember(t.app, sink, owner, 'ranks', 'viewer@ranks.test', viewerRole);
    expect((await admin.patch(`/api/team-members/${viewerId}/`, { role: ownerRole })).statusCode).toBe(403);
    // A role within what they hold is fine.
    expect((await admin.patch(`/api/team-members/${viewerId}/`, { role: adminRole })).statusCode).toBe(200);
  });

  it('cannot change the permission sets of the role they hold, nor grant a set they do not hold', async () => {
    const own = await admin.patch(`/api/roles/${adminRole}/`, { permission_sets: ['manage_users', 'manage_experiences', 'manage_account'] });
    expect(own.statusCode).toBe(403);
    expect(err(own).attr).toBe('permission_sets');
    const beyond = await admin.post('/api/roles/', { name: 'Accountant', permission_sets: ['manage_account'] });
    expect(beyond.statusCode).toBe(403);
    expect(err(beyond).detail).toMatch(/Manage account/);
    const widened = await admin.patch(`/api/roles/${viewerRole}/`, { permission_sets: ['view_experiences', 'manage_account'] });
    expect(widened.statusCode).toBe(403);
    // Within what they hold: allowed.
    expect((await admin.post('/api/roles/', { name: 'Catalogue', permission_sets: ['manage_experiences'] })).statusCode).toBe(201);
    expect((await admin.patch(`/api/roles/${ownerRole}/`, { permission_sets: ['view_experiences'] })).statusCode).toBe(403);
  });

  it('cannot change, deactivate or remove an Owner', async () => {
    expect((await admin.patch(`/api/team-members/${ownerId}/`, { first_name: 'Hijacked' })).statusCode).toBe(403);
    expect((await admin.patch(`/api/team-members/${ownerId}/`, { is_active: false })).statusCode).toBe(403);
    const removed = await admin.delete(`/api/team-members/${ownerId}/`);
    expect(removed.statusCode).toBe(403);
    expect(err(removed).detail).toBe('Only an Owner can change or remove an Owner.');
    expect((await owner.get('/api/users/me/')).json()).toMatchObject({ first_name: 'Olga', role: { is_owner: true } });
  });
});

describe('an Owner', () => {
  it('makes and removes Owners, but never the last one', async () => {
    const last = await owner.patch(`/api/team-members/${ownerId}/`, { role: adminRole });
    expect(last.statusCode).toBe(409);
    const { id: second } = await inviteMember(t.app, sink, owner, 'ranks', 'second@ranks.test', viewerRole);
    expect((await owner.patch(`/api/team-members/${second}/`, { role: ownerRole })).statusCode).toBe(200);
    expect((await owner.patch(`/api/team-members/${second}/`, { role: viewerRole })).statusCode).toBe(200);
    expect((await owner.delete(`/api/team-members/${ownerId}/`)).statusCode).toBe(409);
  });
});
