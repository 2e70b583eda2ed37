import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { expectNoSeriousA11yViolationsInBothSchemes } from './support/a11y';
import { call, demoKayak, kayakSlot } from './support/demo-api';
import { DEMO, org, signIn } from './support/helpers';

const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';

/**
 * Settings → Webhooks: an Owner adds an endpoint (a receiver this test starts on 127.0.0.1, which
 * the server reaches because its operator set WEBHOOKS_ALLOW_PRIVATE=true, playwright.config.ts),
 * copies the secret shown once, books an order, and sees the signed message arrive, verify with
 * the standardwebhooks package, and listed as succeeded on the endpoint's page.
 */
test('an Owner adds a webhook endpoint and sees a signed delivery arrive and listed as succeeded', async ({ page }) => {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/tourdesk-hook`;
  try {
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    await page.goto(org('demo', '/settings/organization/contact'));
    await page.getByRole('navigation').getByRole('link', { name: 'Webhooks' }).click();
    await expect(page).toHaveURL(org('demo', '/settings/webhooks'));
    await expect(page.getByRole('heading', { name: 'Webhooks' })).toBeVisible();
    // The demo's endpoint (disabled, an .example address) is listed.
    await expect(page.getByTestId('webhook-endpoint').filter({ hasText: 'hooks.alpine-trails.example' })).toContainText('Disabled');
    await expectNoSeriousA11yViolationsInBothSchemes(page, 'the webhook endpoints');

    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const form = page.getByRole('form', { name: 'Add a webhook endpoint' });
    await form.getByLabel('Endpoint URL').fill(url);
    await form.getByLabel('Description').fill('Our booking sync');
    // Only the order and booking events that a sale at the counter sends.
    await form.getByLabel('All events').uncheck();
    await form.getByLabel('order.created').check();
    await form.getByLabel('booking.created').check();
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await page.getByTestId('webhook-secret').innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await expect(page.getByTestId('webhook-url')).toHaveText(url);
    await expect(page.getByTestId('webhook-event-type')).toHaveText(['order.created', 'booking.created']);
    await expect(page.getByText('No deliveries yet')).toBeVisible();

    const kayak = await demoKayak(page);
    const slot = await kayakSlot(page, kayak.id, 9);
    const order = await call<{ id: string; reference: string }>(page, 'POST', 'orders/', {
      customer: { email: 'hook.guest@example.com', first_name: 'Hook', last_name: 'Guest' },
      lines: [{ slot: slot.id, quantities: { [kayak.adult]: 1 } }],
      answers: { [kayak.swim]: 'yes' },
    });

    await expect.poll(() => received.length, { timeout: 20_000 }).toBe(2);
    const verifier = new Webhook(secret);
    const messages = received.map((m) => verifier.verify(m.body, m.headers as Record<string, string>) as { type: string; data: { id: string; reference?: string; order?: string } });
    const created = messages.find((m) => m.type === 'order.created')!;
    expect(created.data).toMatchObject({ id: order.id, reference: order.reference });
    expect(messages.find((m) => m.type === 'booking.created')!.data.order).toBe(order.id);

    // The endpoint's page lists both deliveries as succeeded (it refreshes itself).
    const rows = page.getByTestId('webhook-delivery');
    await expect(rows).toHaveCount(2);
    await expect(rows.and(page.locator('[data-status="succeeded"]'))).toHaveCount(2);
    await expect(rows.filter({ hasText: 'order.created' })).toContainText('Succeeded');
    await expect(rows.filter({ hasText: 'order.created' })).toContainText('204');
    await page.screenshot({ path: `${SHOTS}/webhook-endpoint.png`, fullPage: true });
    await expectNoSeriousA11yViolationsInBothSchemes(page, 'a webhook endpoint');

    // Resend one: the same message again, verified with the same secret.
    await rows.filter({ hasText: 'order.created' }).getByRole('button', { name: 'Resend' }).click();
    await expect.poll(() => received.length, { timeout: 20_000 }).toBe(3);
    expect(received[2]!.headers['webhook-id']).toBe(received.find((m) => m.body.includes('"order.created"'))!.headers['webhook-id']);
    await expect(rows).toHaveCount(3);
  } finally {
    await new Promise((r) => receiver.close(r));
  }
});
