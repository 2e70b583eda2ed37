import { createHash, randomBytes } from 'node:crypto';
import { jwtVerify, type JWTPayload, type JWTVerifyOptions, type SignJWT } from 'jose';
import type { Database } from '../../db/client';
import { ownerSigningKey } from './queries';

const KEY_NAME = 'jwt_signing_key';

export interface SigningKey {
  /** The key's id in each token's header: the first 16 hex digits of its SHA-256, never the key. */
  kid: string;
  key: Uint8Array;
}

/**
 * The keys that sign and check the tokens the API issues (access tokens, the sign-on flow's
 * cookie). The first signs; every one checks, found by the token's `kid`. To rotate without
 * signing anyone out: put the new key first and keep the old one after it (JWT_SECRET="new old")
 * until the access tokens it signed have expired (ACCESS_TOKEN_TTL_SECONDS), then drop it.
 */
export class SigningKeys {
  readonly current: SigningKey;
  /** Access tokens whose signature these keys checked, until they expire (the token is the key). */
  readonly checked = new Map<string, { sub?: string; sid?: unknown; exp: number }>();
  private readonly byKid: Map<string, SigningKey>;

  constructor(keys: SigningKey[]) {
    if (keys.length === 0) throw new Error('At least one signing key is needed.');
    this.current = keys[0]!;
    this.byKid = new Map(keys.map((k) => [k.kid, k]));
  }

  static fromSecrets(secrets: string[]) {
    return new SigningKeys(secrets.map((s) => keyOf(new TextEncoder().encode(s))));
  }

  /** The key of this id (a token's `kid`), while it is in the ring. */
  byId(kid: string) {
    return this.byKid.get(kid);
  }

  /** Signs with the current key and names it in the header. */
  sign(jwt: SignJWT) {
    return jwt.setProtectedHeader({ alg: 'HS256', kid: this.current.kid }).sign(this.current.key);
  }

  /** Checks a token with the key its header names (a token without a `kid`: the current key). */
  verify<P extends JWTPayload = JWTPayload>(token: string, options: Omit<JWTVerifyOptions, 'algorithms'> = {}) {
    return jwtVerify<P>(
      token,
      (header) => {
        const key = header.kid === undefined ? this.current : this.byKid.get(header.kid);
        if (!key) throw new Error('unknown signing key');
        return key.key;
      },
      { ...options, algorithms: ['HS256'] },
    );
  }
}

const keyOf = (key: Uint8Array): SigningKey => ({ kid: createHash('sha256').update(key).digest('hex').slice(0, 16), key });

/**
 * The keys from JWT_SECRET or JWT_SECRET_FILE (config.ts reads both) when set; otherwise one
 * generated on first start and kept in the database (system_setting), so every instance and every
 * restart agree. That table is the owner's: the application's role cannot read it, so the key is
 * read once here, as the owner, before the app serves anything.
 */
export async function loadSigningKeys(database: Database, secrets: string[] | undefined): Promise<SigningKeys> {
  if (secrets && secrets.length > 0) return SigningKeys.fromSecrets(secrets);
  try {
    const value = await ownerSigningKey(database, KEY_NAME, randomBytes(64).toString('base64'));
    return new SigningKeys([keyOf(new Uint8Array(Buffer.from(value, 'base64')))]);
  } catch (error) {
    throw new Error(
      `The signing key could not be read as the database's owner (${(error as Error).message}). Set JWT_SECRET (or JWT_SECRET_FILE), or MIGRATION_DATABASE_URL to the owner's URL.`,
    );
  }
}
