import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

let t: TestApp;
let sink: MailSink;

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe("a user's back-office language", () => {
  it('is null (the browser’s) at first, set and cleared through PATCH /api/users/me/, kept by a PUT that leaves it out', async () => {
    const b = await createOrganisation(t.app, sink, { subdomain: 'sprache' });
    expect((await b.get('/api/users/me/')).json()).toMatchObject({ language: null });

    const set = await b.patch('/api/users/me/', { language: 'de' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ language: 'de' });
    expect((await b.get('/api/users/me/')).json()).toMatchObject({ language: 'de' });

    const renamed = await b.request('PUT', '/api/users/me/', { first_name: 'Ada', last_name: 'Lovelace' });
    expect(renamed.json()).toMatchObject({ first_name: 'Ada', language: 'de' });

    // Only the back office's languages: French is a store language, not one of the back office.
    const french = await b.patch('/api/users/me/', { language: 'fr' });
    expect(french.statusCode).toBe(400);
    expect((await b.get('/api/users/me/')).json()).toMatchObject({ language: 'de' });

    const cleared = await b.patch('/api/users/me/', { language: null });
    expect(cleared.json()).toMatchObject({ language: null });
  });
});
