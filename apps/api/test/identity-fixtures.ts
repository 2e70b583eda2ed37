import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { BASE, Browser, tenantHost } from './http-client';
import { linkIn, type MailSink } from './mail-sink';

export const PASSWORD = 'correct horse battery';

/** Signs up an organisation through the API, follows the activation e-mail and signs its owner in on its own host. */
export async function createOrganisation(
  app: FastifyInstance,
  sink: MailSink,
  { subdomain, email = `owner@${subdomain}.test`, kind = 'supplier', ...more }: { subdomain: string; email?: string; kind?: string; currency?: string; time_zone?: string },
) {
  const browser = new Browser(app, BASE);
  const reg = await browser.post('/api/users/register/', {
    email,
    password: PASSWORD,
    first_name: 'Olga',
    last_name: 'Owner',
    organisation_name: `${subdomain} tours`,
    kind,
    subdomain,
    ...more,
  });
  expect(reg.statusCode, reg.body).toBe(201);
  const { uid, token } = linkIn(await sink.latest(email, /Activate/));
  expect((await browser.post('/api/users/activation/', { uid, token })).statusCode).toBe(204);
  await signIn(browser, email, subdomain);
  return browser;
}

/** Signs in on the bare host and completes the hand-off on the organisation's host. */
export async function signIn(browser: Browser, email: string, subdomain: string, password = PASSWORD) {
  browser.on(BASE);
  const login = await browser.post('/api/jwt/create/', { email, password });
  expect(login.statusCode, login.body).toBe(200);
  const target = new URL(login.json().redirect_url);
  expect(target.hostname).toBe(`${subdomain}.localhost`);
  browser.on(tenantHost(subdomain));
  const handoff = await browser.post('/api/jwt/handoff/', { code: target.searchParams.get('code') });
  expect(handoff.statusCode, handoff.body).toBe(200);
  return browser;
}

/** Invites a member with a role, follows the invitation e-mail, and signs them in. */
export async function inviteMember(
  app: FastifyInstance,
  sink: MailSink,
  owner: Browser,
  subdomain: string,
  email: string,
  roleId: string,
  names: { first_name: string; last_name: string } = { first_name: 'Mia', last_name: 'Member' },
) {
  const invite = await owner.post('/api/team-members/', { email, role: roleId, ...names });
  expect(invite.statusCode, invite.body).toBe(201);
  const { uid, token, url } = linkIn(await sink.latest(email, /invited you/));
  expect(url.hostname).toBe(`${subdomain}.localhost`);
  const member = new Browser(app, tenantHost(subdomain));
  expect((await member.post('/api/users/accept_invitation/', { uid, token, new_password: PASSWORD })).statusCode).toBe(204);
  await signIn(member, email, subdomain);
  return { member, id: invite.json().id as string };
}
