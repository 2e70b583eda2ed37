import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness';
import { BASE, Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Issue 29, "Bad input": a JSON body nested 10,000 levels down (an array at the top, an object in
 * an extra field, or both) made the walks after parsing (the unsafe-text hook, zod) overflow the
 * stack and answer 500. The JSON parser now refuses a body nested deeper than 64 levels, before
 * anything walks it, with a 400 parse_error in the envelope.
 */
const LEVELS = 10_000;
const arrayAtTop = `${'['.repeat(LEVELS)}${']'.repeat(LEVELS)}`;
const nestedObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const nestedArray = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
/** An ordinary body with a deep object in a field nobody asked for. */
const inExtra = (fields: Record<string, unknown>, deep: string) => `${JSON.stringify(fields).slice(0, -1)},"extra":${deep}}`;
/** Arrays and objects alternating, half the levels each, in an extra field of an array at the top. */
const both = `[${inExtra({ email: 'someone@example.com' }, `${'[{"a":'.repeat(LEVELS / 2)}1${'}]'.repeat(LEVELS / 2)}`)}]`;

let t: TestApp;
let sink: MailSink;
let owner: Browser;
let anonymous: Browser;
let experienceId: string;

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'deep' });
  anonymous = new Browser(t.app, BASE);
  const created = await owner.post('/api/experiences/', { title: 'Deep tour', type: 'Ticket & Passes', short_description: 'Down and down.' });
  expect(created.statusCode, created.body).toBe(201);
  experienceId = created.json().id;
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const send = (browser: Browser, method: string, url: string, raw: string) => browser.request(method, url, raw, { 'content-type': 'application/json' });

function expectRefused(res: { statusCode: number; body: string; json(): unknown }, what: string) {
  expect(res.statusCode, `${what}: ${res.body.slice(0, 200)}`).toBe(400);
  expect(res.json(), what).toEqual({
    type: 'client_error',
    errors: [{ code: 'parse_error', detail: 'The request body is nested deeper than 64 levels.', attr: null }],
  });
}

describe('a JSON body nested deeply is refused with a 400, never a 500', () => {
  const bodies = (fields: Record<string, unknown>) => ({
    'an array at the top': arrayAtTop,
    'an object in an extra field': inExtra(fields, nestedObject(LEVELS)),
    'an array in an extra field': inExtra(fields, nestedArray(LEVELS)),
    'arrays and objects, at the top and in a field': both,
  });

  it('on the sign-in, activation and reset routes (anonymous)', async () => {
    const routes: [string, Record<string, unknown>][] = [
      ['/api/jwt/create/', { email: 'owner@deep.test', password: 'whatever' }],
      ['/api/users/register/', { email: 'new@deep.test', password: 'correct horse battery' }],
      ['/api/users/activation/', { uid: 'x', token: 'y' }],
      ['/api/users/resend_activation/', { email: 'owner@deep.test' }],
      ['/api/users/reset_password/', { email: 'owner@deep.test' }],
      ['/api/users/reset_password_confirm/', { uid: 'x', token: 'y', new_password: 'correct horse battery' }],
      ['/api/users/accept_invitation/', { uid: 'x', token: 'y', new_password: 'correct horse battery' }],
      ['/api/users/reset_email/', { email: 'owner@deep.test' }],
      ['/api/jwt/handoff/', { code: 'x' }],
    ];
    for (const [url, fields] of routes) {
      for (const [what, raw] of Object.entries(bodies(fields))) expectRefused(await send(anonymous, 'POST', url, raw), `POST ${url} with ${what}`);
    }
  });

  it('on tenant routes: POST, PUT, PATCH, a route whose body is optional, and one that declares no body', async () => {
    const routes: [string, string, Record<string, unknown>][] = [
      ['POST', '/api/experiences/', { title: 'Deeper tour' }],
      ['PUT', `/api/experiences/${experienceId}/`, { title: 'Deeper tour' }],
      ['PATCH', `/api/experiences/${experienceId}/`, { title: 'Deeper tour' }],
      ['PATCH', '/api/users/me/', { first_name: 'Olga' }],
      ['POST', '/api/orders/', { lines: [] }],
      ['POST', `/api/orders/${crypto.randomUUID()}/cancel/`, { keep_cancellation_fee: false }],
      ['POST', '/api/jwt/refresh/', {}],
    ];
    for (const [method, url, fields] of routes) {
      for (const [what, raw] of Object.entries(bodies(fields))) expectRefused(await send(owner, method, url, raw), `${method} ${url} with ${what}`);
    }
    // Nothing was changed by them: the owner is still signed in and the experience kept its title.
    const experience = await owner.get(`/api/experiences/${experienceId}/`);
    expect(experience.statusCode).toBe(200);
    expect(experience.json().title).toBe('Deep tour');
  });

  it('counts from the outermost bracket: 64 levels pass the parser, 65 are refused', async () => {
    // The body itself is level 1, so the extra field may hold 63 more.
    const at64 = await send(owner, 'PATCH', '/api/users/me/', inExtra({ first_name: 'Olga' }, nestedArray(63)));
    expect(at64.statusCode, at64.body).toBe(200);
    expectRefused(await send(owner, 'PATCH', '/api/users/me/', inExtra({ first_name: 'Olga' }, nestedArray(64))), 'PATCH /api/users/me/ 65 levels');
    expect((await send(owner, 'PATCH', '/api/users/me/', nestedArray(64))).json().errors[0].code).not.toBe('parse_error');
    expectRefused(await send(owner, 'PATCH', '/api/users/me/', nestedArray(65)), 'an array 65 levels at the top');
  });

  it('brackets inside strings (escaped quotes too) do not count, and malformed JSON is still a parse_error', async () => {
    const brackets = `[{"\\"${'['.repeat(LEVELS)}`;
    const res = await owner.patch('/api/users/me/', { first_name: brackets.slice(0, 100), last_name: 'B', extra: `\\" ${'{['.repeat(LEVELS)}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().first_name).toBe(brackets.slice(0, 100));
    const broken = await send(owner, 'POST', '/api/experiences/', '{"title": ');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().errors[0]).toMatchObject({ code: 'parse_error', detail: expect.not.stringContaining('nested') });
  });

  it('keeps Stripe’s webhook body raw: its route does not parse it, so depth is not the parser’s to refuse', async () => {
    const res = await send(anonymous, 'POST', '/api/stripe/webhook/', arrayAtTop);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json().errors[0].code).not.toBe('parse_error');
  });
});
