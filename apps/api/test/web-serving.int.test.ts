import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness';

/** The API serves a built web app from its own origin; this builds a tiny one on disk. */
let t: TestApp;
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'tourdesk-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), `console.log(${JSON.stringify('x'.repeat(5000))});`);
  writeFileSync(path.join(dist, 'favicon.svg'), '<svg/>');
  t = await createTestApp({ env: { WEB_DIST_DIR: dist } });
});
afterAll(async () => {
  await t?.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('serving the web app', () => {
  it('answers client routes with index.html, revalidated', async () => {
    for (const url of ['/', '/dashboard', '/orders/editor/42/details?x=1']) {
      const res = await t.app.inject({ url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('caches hashed assets for a year and compresses them', async () => {
    const res = await t.app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('gzip');
  });

  it('revalidates unhashed files', async () => {
    const res = await t.app.inject({ url: '/favicon.svg' });
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('answers a missing asset with 404, not index.html', async () => {
    const res = await t.app.inject({ url: '/assets/missing-999.js' });
    expect(res.statusCode).toBe(404);
    expect(res.json().errors[0].code).toBe('not_found');
  });

  it('never answers an unknown /api/ path with the web app', async () => {
    const res = await t.app.inject({ url: '/api/unknown/', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(404);
    expect(res.json().type).toBe('client_error');
  });
});

describe('security headers', () => {
  const csp = (h: Record<string, unknown>) => String(h['content-security-policy'] ?? '');

  it('on every response: a policy with no inline script and no framing, nosniff, a referrer policy', async () => {
    for (const url of ['/', '/dashboard', '/assets/index-abc123.js', '/api/health/', '/api/no-such-thing/', '/api/users/me/', '/api/docs/']) {
      const res = await t.app.inject({ url, headers: { host: 'localhost' } });
      const policy = csp(res.headers);
      expect(policy, url).toMatch(/script-src 'self'(;|$)/);
      expect(policy, url).not.toMatch(/unsafe-inline[^;]*;?.*script|script-src[^;]*unsafe-(inline|eval)/);
      expect(policy, url).toContain("frame-ancestors 'none'");
      expect(policy, url).toContain("object-src 'none'");
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('HSTS outside localhost only', async () => {
    const res = await t.app.inject({ url: '/api/health/', headers: { host: 'tourdesk.example.com' } });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('the API documentation under the same policy: its page has no inline script', async () => {
    const res = await t.app.inject({ url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(csp(res.headers)).toMatch(/script-src 'self'(;|$)/);
    expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });
});

