import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

/**
 * The demo's API key for its reseller: the partnership demo → alpine-agency (made by
 * seedPartnerDemo, which must run first) gets a key named "Demo OCTO key", so a reseller can try
 * the OCTO and public booking APIs at once. The secret is random, made when the demo is seeded,
 * and printed once in the server's output (never stored: only its SHA-256 is kept); outside
 * production only. Without that partnership (or in production) nothing is made.
 */
export async function seedOctoDemo(tx: Db, supplierAccountId: string): Promise<string | null> {
  if (process.env.NODE_ENV === 'production') return null;
  const found = (await tx.execute(sql`
    select p.id from partnership p join base_account r on r.id = p.reseller_account_id
    where p.supplier_account_id = ${supplierAccountId} and r.subdomain = 'alpine-agency' and p.status = 'Active'
    limit 1`)) as unknown as { rows: { id: string }[] };
  const partnershipId = found.rows[0]?.id;
  if (!partnershipId) return null;
  // The agreed format: td_ + base64url of 32 random bytes; prefix its first 10 characters.
  const secret = `td_${randomBytes(32).toString('base64url')}`;
  await tx.execute(sql`
    insert into api_key (account_id, partnership_id, name, prefix, secret_hash)
    values (${supplierAccountId}, ${partnershipId}, 'Demo OCTO key', ${secret.slice(0, 10)}, ${createHash('sha256').update(secret).digest('hex')})`);
  process.stdout.write(`  Demo reseller API key (alpine-agency, OCTO at /octo/v1 and /api/public/): ${secret}  (shown once)\n`);
  return secret;
}
