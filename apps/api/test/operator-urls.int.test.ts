import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Issue 29, "URLs that operators set (store terms, links) accept javascript:": every address an
 * operator sets is http(s) only, refused otherwise with a clear message.
 */
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let storeId: string;

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'urlshop', currency: 'CHF' });
  const made = await owner.post('/api/stores/', { name: 'URL shop', slug: 'urls' });
  expect(made.statusCode, made.body).toBe(201);
  storeId = made.json().id;
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const BAD = ['javascript:alert(document.cookie)', 'JavaScript://example.com/%0Aalert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)', 'ftp://example.com/terms'];

describe('URLs that operators set accept http(s) only', () => {
  it('a store’s terms address: javascript:, data: and other schemes are refused with a clear message; http(s) is kept', async () => {
    for (const url of BAD) {
      const made = await owner.post('/api/stores/', { name: 'Bad', slug: 'bad-terms', terms_url: url });
      expect(made.statusCode, `${url}: ${made.body}`).toBe(400);
      expect(made.json().errors[0]).toMatchObject({ attr: 'terms_url', detail: 'Enter a full address starting with https:// (or http://).' });
      const changed = await owner.patch(`/api/stores/${storeId}/`, { terms_url: url });
      expect(changed.statusCode, `${url}: ${changed.body}`).toBe(400);
    }
    const ok = await owner.patch(`/api/stores/${storeId}/`, { terms_url: 'https://www.example.com/terms' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().terms_url).toBe('https://www.example.com/terms');
    expect((await owner.patch(`/api/stores/${storeId}/`, { terms_url: '' })).json().terms_url).toBe('');
  });

  it('an offer’s video address: the same', async () => {
    for (const url of BAD) {
      const res = await owner.post('/api/videos/', { url });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json().errors[0]).toMatchObject({ attr: 'url' });
    }
  });
});
