import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness';
import { startMailSink, type MailSink } from './mail-sink';
import { resaleWorld } from './resale-fixtures';

let t: TestApp;
let sink: MailSink;
let w: Awaited<ReturnType<typeof resaleWorld>>;
let sold: Awaited<ReturnType<Awaited<ReturnType<typeof resaleWorld>>['resell']>>;

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  w = await resaleWorld(t, sink, 'leak');
  const p = await w.contract({});
  sold = await w.resell(p, 3, 2, 'R-LEAK');
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

/**
 * Review: the policy reseller_read lets a reseller's tenant SELECT the supplier's orders and
 * bookings it resold. Only the resales module may show them; every other GET of the back office,
 * run as the reseller, must not show the resale's order (its id, reference, or customer).
 */
describe('a resold order shows only in resales on the reseller’s side', () => {
  it('no other GET of /api/schema/ shows it to the reseller', async () => {
    const doc = (await t.app.inject({ url: '/api/schema/' })).json() as { paths: Record<string, Record<string, unknown>> };
    const leaks: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      if (!methods.get || path.startsWith('/octo') || path.startsWith('/api/public') || path.startsWith('/api/resales') || path.startsWith('/api/settlements')) continue;
      for (const id of path.includes('{') ? [sold.id, sold.booking] : [null]) {
      const r = await w.reseller.get(id ? path.replace(/\{[^}]+\}/g, id) : path);
      if (r.body.includes(sold.reference) || r.body.includes('Gina') || r.body.includes(sold.id)) leaks.push(`${path} ${r.statusCode} ${r.body.slice(0, 200)}`);
      }
    }
    expect(leaks).toEqual([]);
    // The same look finds it where it belongs: the supplier's orders and the reseller's resales.
    expect((await w.supplier.get('/api/orders/')).body).toContain(sold.reference);
    expect((await w.reseller.get('/api/resales/')).body).toContain(sold.reference);
  });
});
