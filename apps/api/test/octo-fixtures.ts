import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../src/db/client';

/**
 * Partners for the partner-API tests, written as the partners engineer's endpoints would: rows
 * inserted through the owner's connection (partnership, shared offers, an API key in the agreed
 * format: `td_` + base64url of 32 random bytes, prefix its first 10 characters, SHA-256 hex).
 */
export function newKeySecret() {
  const secret = `td_${randomBytes(32).toString('base64url')}`;
  return { secret, prefix: secret.slice(0, 10), hash: createHash('sha256').update(secret).digest('hex') };
}

export async function accountIdOf(database: Database, subdomain: string) {
  const rows = (await database.asOwner((tx) => tx.execute(sql`select id from base_account where subdomain = ${subdomain}`))) as unknown as { rows: { id: string }[] };
  return rows.rows[0]!.id;
}

export async function makePartnership(
  database: Database,
  o: { supplier: string; reseller: string; offers: string[]; commissionBp?: number; status?: string; pricing?: 'commission' | 'net'; netRates?: Record<string, number>; currency?: string },
) {
  const supplierId = await accountIdOf(database, o.supplier);
  const resellerId = await accountIdOf(database, o.reseller);
  return database.asOwner(async (tx) => {
    const made = (await tx.execute(sql`
      insert into partnership (supplier_account_id, reseller_account_id, invited_by_account_id, status, pricing, commission_bp, currency)
      values (${supplierId}, ${resellerId}, ${supplierId}, ${o.status ?? 'Active'}, ${o.pricing ?? 'commission'}, ${o.commissionBp ?? 1500}, ${o.currency ?? 'EUR'})
      returning id`)) as unknown as { rows: { id: string }[] };
    const partnershipId = made.rows[0]!.id;
    for (const offer of o.offers) {
      await tx.execute(sql`insert into partnership_experience (partnership_id, account_id, experience_id, net_rates) values (${partnershipId}, ${supplierId}, ${offer}, ${JSON.stringify(o.netRates ?? {})}::jsonb)`);
    }
    const key = newKeySecret();
    const keyRow = (await tx.execute(sql`
      insert into api_key (account_id, partnership_id, name, prefix, secret_hash) values (${supplierId}, ${partnershipId}, 'test key', ${key.prefix}, ${key.hash}) returning id`)) as unknown as { rows: { id: string }[] };
    return { partnershipId, supplierId, resellerId, key: key.secret, keyId: keyRow.rows[0]!.id };
  });
}

/** A partner's HTTP client: the key as Bearer, OCTO's capability header when asked. */
export function partnerClient(app: FastifyInstance, key: string | null, capabilities = 'octo/pricing') {
  const headers = (): Record<string, string> => ({ ...(key ? { authorization: `Bearer ${key}` } : {}), 'octo-capabilities': capabilities });
  return {
    get: (url: string) => app.inject({ method: 'GET', url, headers: headers() }),
    post: (url: string, body: unknown = {}) => app.inject({ method: 'POST', url, payload: body as object, headers: headers() }),
    patch: (url: string, body: unknown = {}) => app.inject({ method: 'PATCH', url, payload: body as object, headers: headers() }),
  };
}
