import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets a job carries (an e-mail's text with its one-time link, an order's booking-page secret),
 * sealed with AES-256-GCM under a key derived from the server's signing key (JWT_SECRET, or the
 * generated one only the database owner reads), so pg-boss's tables and their backups hold none.
 * The sealed text names its key's id: after a rotation (JWT_SECRET="new old") a job sealed with
 * the old key opens while the old key stays in the ring.
 */
export interface Sealer {
  seal(value: string): string;
  /** The value; throws when the text was not sealed by a key of the ring, or was changed. */
  open(sealed: string): string;
}

interface RingKey {
  kid: string;
  key: Uint8Array;
}

const derive = (key: Uint8Array) => Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'tourdesk sealed job data v1', 32));

export function createSealer(current: RingKey, find: (kid: string) => RingKey | undefined): Sealer {
  const keys = new Map<string, Buffer>([[current.kid, derive(current.key)]]);
  const keyOf = (kid: string) => {
    if (!keys.has(kid)) {
      const found = find(kid);
      if (!found) throw new Error('sealed with a key that is no longer in JWT_SECRET');
      keys.set(kid, derive(found.key));
    }
    return keys.get(kid)!;
  };
  return {
    seal(value) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', keyOf(current.kid), iv);
      const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
      return ['v1', current.kid, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
    },
    open(sealed) {
      const [version, kid, iv, body, tag] = sealed.split('.');
      if (version !== 'v1' || !kid || !iv || body === undefined || !tag) throw new Error('not a sealed value');
      const decipher = createDecipheriv('aes-256-gcm', keyOf(kid), Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
