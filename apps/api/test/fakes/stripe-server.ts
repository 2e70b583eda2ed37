import { startFakeStripe } from './stripe';

/**
 * The fake Stripe as a process, for browser tests and manual runs:
 *   FAKE_STRIPE_PORT=12111 FAKE_STRIPE_WEBHOOK_URL=http://127.0.0.1:3000/api/webhooks/stripe \
 *   FAKE_STRIPE_WEBHOOK_SECRET=whsec_test node --import tsx apps/api/test/fakes/stripe-server.ts
 * Point the app at it with the SDK options host 127.0.0.1, port FAKE_STRIPE_PORT, protocol http.
 * FAKE_STRIPE_PUBLIC_URL is the base a browser uses for the hosted pages (the listening URL by default).
 */
const env = process.env;
const fake = await startFakeStripe({
  ...(env.FAKE_STRIPE_PORT ? { port: Number(env.FAKE_STRIPE_PORT) } : {}),
  ...(env.FAKE_STRIPE_WEBHOOK_URL ? { webhookUrl: env.FAKE_STRIPE_WEBHOOK_URL } : {}),
  ...(env.FAKE_STRIPE_WEBHOOK_SECRET ? { webhookSecret: env.FAKE_STRIPE_WEBHOOK_SECRET } : {}),
  ...(env.FAKE_STRIPE_PUBLIC_URL ? { publicUrl: env.FAKE_STRIPE_PUBLIC_URL } : {}),
});
process.stdout.write(`fake Stripe listening on ${fake.url} (pages at ${fake.publicUrl}; webhooks to ${fake.webhookUrl ?? 'nowhere'})\n`);

let closing = false;
const stop = () => {
  if (closing) return;
  closing = true;
  fake.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
