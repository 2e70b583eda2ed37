import { describe, expect, it } from 'vitest';
import { subdomainOf, tenantOrigin } from './host';

describe('host helpers', () => {
  it('finds the organisation subdomain, or null on the bare and www hosts', () => {
    expect(subdomainOf('acme.localhost', 'localhost')).toBe('acme');
    expect(subdomainOf('localhost', 'localhost')).toBeNull();
    expect(subdomainOf('www.example.com', 'example.com')).toBeNull();
    expect(subdomainOf('Acme.Example.com', 'example.com')).toBe('acme');
    expect(subdomainOf('a.b.example.com', 'example.com')).toBeNull();
    expect(subdomainOf('evil.test', 'example.com')).toBeNull();
  });

  it('builds an organisation’s origin from the public URL', () => {
    expect(tenantOrigin('http://localhost:3000', 'acme')).toBe('http://acme.localhost:3000');
    expect(tenantOrigin('https://example.com', 'acme')).toBe('https://acme.example.com');
  });
});
