import { describe, expect, it } from 'vitest';
import { EMAILED_LINKS, isSecretName, linkPath, SecretPaths } from './secret-paths';

describe('SecretPaths', () => {
  const paths = new SecretPaths();
  paths.add('/api/partner-invitations/:token/accept/');
  paths.add('/api/partners/:id/api-keys/:keyId/revoke/');

  it('redacts the secret parameters of the route that matched, or of any route the path fits', () => {
    expect(paths.redactUrl('/api/things/abc/', '/api/things/:token/')).toBe('/api/things/[redacted]/');
    expect(paths.redactUrl('/api/partner-invitations/abc/accept/')).toBe('/api/partner-invitations/[redacted]/accept/');
    expect(paths.redactUrl('/auth/reset-password/u-1/t.2')).toBe('/auth/reset-password/[redacted]/[redacted]');
    // Ids are not secrets.
    expect(paths.redactUrl('/api/partners/p1/api-keys/k1/revoke/')).toBe('/api/partners/p1/api-keys/k1/revoke/');
    expect(paths.redactUrl('/api/orders/o1/', '/api/orders/:id/')).toBe('/api/orders/o1/');
  });

  it('redacts secret query values and the paths inside query values', () => {
    expect(paths.redactUrl('/auth/handoff?code=abc&x=1')).toBe('/auth/handoff?code=[redacted]&x=1');
    expect(paths.redactUrl('/auth/oidc/callback?state=s&code=c&iss=https%3A%2F%2Fidp')).toBe('/auth/oidc/callback?state=[redacted]&code=[redacted]&iss=https%3A%2F%2Fidp');
    expect(paths.redactUrl(`/auth/login?next=${encodeURIComponent('/sales/partners/invitation/abc')}`)).toBe(`/auth/login?next=${encodeURIComponent('/sales/partners/invitation/[redacted]')}`);
  });

  it('redacts addresses inside a text', () => {
    expect(paths.redactText('Reply was already sent for /auth/invite/u/t (GET)')).toBe('Reply was already sent for /auth/invite/[redacted]/[redacted] (GET)');
  });

  it('names secrets by their parameter names', () => {
    for (const name of ['token', 'uid', 'code', 'key', 'secret', 'api_key', 'cartToken', 'state']) expect(isSecretName(name), name).toBe(true);
    for (const name of ['id', 'keyId', 'slug', 'reference', 'next', 'page']) expect(isSecretName(name), name).toBe(false);
  });

  it('builds the e-mailed links from the same patterns', () => {
    expect(linkPath(EMAILED_LINKS.invite, { uid: 'u', token: 'a.b' })).toBe('/auth/invite/u/a.b');
  });
});
