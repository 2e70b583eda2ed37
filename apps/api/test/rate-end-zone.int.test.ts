import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '@tourdesk/contracts';
import { execute } from '../src/db/execute';
import { createTestApp, type TestApp } from './harness';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * A pricing rate's last day (`valid_to`) ends at midnight where the organisation sells, not where
 * the database server runs. The organisation's zone is one of two at the ends of the world, chosen
 * so that its date is not the server's `current_date` at the moment the test runs (at any moment
 * one of them is a day off UTC), so a rule that reads the server's day answers otherwise.
 */
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

describe('a rate ends on its last day in the organisation’s time zone', () => {
  it('counts for the offer’s from price by the organisation’s day, not the server’s', async () => {
    const { rows } = await t.database.asOwner((tx) => execute<{ day: string }>(tx, sql`select current_date::text as day`));
    const serverDay = rows[0]!.day;
    const zone = ['Pacific/Kiritimati', 'Pacific/Pago_Pago'].find((z) => todayIn(z) !== serverDay);
    expect(zone, `both zones' day is the server's ${serverDay}`).toBeDefined();
    const orgDay = todayIn(zone!);

    const owner = await createOrganisation(t.app, sink, { subdomain: 'dateline' });
    expect((await owner.patch('/api/account/', { time_zone: zone })).statusCode).toBe(200);
    const exp = (await owner.post('/api/experiences/', { title: 'Dateline cruise', type: 'Ticket & Passes' })).json().id as string;
    const adult = (await owner.post('/api/pricing-categories/', { type: 'Adult', label: 'Adult' })).json().id as string;
    // Its last day: the earlier of the two days, which has ended where the organisation is when the
    // organisation's day is later, and is today there when it is earlier.
    const lastDay = orgDay < serverDay ? orgDay : serverDay;
    const rate = await owner.post('/api/pricing-rates/', { experience: exp, pricing_category: adult, retail_price: 4900, valid_from: '2020-01-01', valid_to: lastDay });
    expect(rate.statusCode, rate.body).toBe(201);
    const current = orgDay <= lastDay;

    const listed = (await owner.get('/api/experiences/?search=Dateline')).json().results[0];
    expect(listed.from_price, `organisation's day ${orgDay} (${zone}), server's ${serverDay}, last day ${lastDay}`).toBe(current ? 4900 : null);
  });
});
