import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { execute } from '../db/execute';

/**
 * The demo's API key for its reseller: the partnership demo → alpine-agency (made by
 * seedPartnerDemo, which must run first) gets a key named "Demo OCTO key", so a reseller can try
 * the OCTO and public booking APIs at once. The secret is random, made when the demo is seeded,
 * and printed once in the server's output (never stored: only its SHA-256 is kept); outside
 * production only. Without that partnership (or in production) nothing is made.
 */
export async function seedOctoDemo(tx: Db, supplierAccountId: string): Promise<string | null> {
  if (process.env.NODE_ENV === 'production') return null;
  const found = (await execute<{ id: string }>(tx, sql`
    select p.id from partnership p join base_account r on r.id = p.reseller_account_id
    where p.supplier_account_id = ${supplierAccountId} and r.subdomain = 'alpine-agency' and p.status = 'Active'
    limit 1`));
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

/**
 * Two more offers the demo's reseller sells over OCTO only (not in the demo's own web store): an
 * evening cruise by start time (80 seats at 18:30 daily) and a paddleboard rental by opening hours
 * (09:00–18:00, 30 boards a day), each with the kayak's categories and booking questions, so a
 * reseller — or OCTO's validator — sees both of OCTO's availability types and a departure that
 * takes many reservations. Run in the organisation's tenant scope (after the bookings).
 */
export async function seedPartnerOffers(
  tx: Db,
  ctx: { tx: Db; accountId: string; currency: string },
  kayak: { id: string; adult: string; child: string },
  regenerate: (ctx: { tx: Db; accountId: string; currency: string }, experienceId: string) => Promise<unknown>,
  today: string,
) {
  const accountId = ctx.accountId;
  // The partnership that shares the kayak (the demo → alpine-agency), read as the supplier's own rows (the tenant scope is on).
  const [share] = (
    (await execute<{ id: string }>(tx, sql`select partnership_id as id from partnership_experience where account_id = ${accountId} and experience_id = ${kayak.id} limit 1`))
  ).rows;
  const offers = [
    {
      title: 'Evening Cruise on Lake Lucerne',
      type: 'Ticket & Passes',
      short: 'Two hours on the lake as the sun sets behind Mount Pilatus.',
      duration: 120,
      rule: { kind: 'start_times', start_times: ['18:30'], closing_time: null, capacity: 80 },
      prices: [[kayak.adult, 4500, 3600], [kayak.child, 2200, 1800]],
    },
    {
      title: 'Paddleboard Rental, by the day',
      type: 'Rental',
      short: 'A stand-up paddleboard from the boat station, any time the kiosk is open.',
      duration: 540,
      rule: { kind: 'opening_hours', start_times: ['09:00'], closing_time: '18:00', capacity: 30 },
      prices: [[kayak.adult, 3900, 3100], [kayak.child, 2500, 2000]],
    },
  ] as const;
  for (const o of offers) {
    const made = (await execute<{ id: string }>(tx, sql`
      insert into experience (account_id, title, status, type, short_description, duration_minutes, languages, max_participants,
                              meeting_point_ids, cancellation_policy_id, booking_question_ids, meeting_instructions)
      select account_id, ${o.title}, 'Active', ${o.type}, ${o.short}, ${o.duration}, languages, 8,
             meeting_point_ids, cancellation_policy_id, booking_question_ids, meeting_instructions
      from experience where account_id = ${accountId} and id = ${kayak.id}
      returning id`));
    const id = made.rows[0]!.id;
    for (const [category, retail, net] of o.prices) {
      await tx.execute(sql`insert into pricing_rate (account_id, experience_id, pricing_category_id, retail_price, net_price, currency) values (${accountId}, ${id}, ${category}, ${retail}, ${net}, 'CHF')`);
    }
    await tx.execute(sql`
      insert into schedule_rule (account_id, experience_id, kind, valid_from, start_times, closing_time, capacity)
      values (${accountId}, ${id}, ${o.rule.kind}, ${today}, ${sql.raw(`array[${o.rule.start_times.map((t) => `'${t}'`).join(',')}]::text[]`)}, ${o.rule.closing_time}, ${o.rule.capacity})`);
    await regenerate(ctx, id);
    if (share) await tx.execute(sql`insert into partnership_experience (partnership_id, account_id, experience_id) values (${share.id}, ${accountId}, ${id})`);
  }
}
