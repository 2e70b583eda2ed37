import type Stripe from 'stripe';
import type { Config } from '../../config';

/**
 * The one Stripe client (the official SDK), or null when no secret key is configured: then no
 * online payment is offered and the payment providers page says what is missing.
 * STRIPE_API_URL points it elsewhere (the tests' local fake of Stripe's API). The SDK is loaded
 * only when a key is configured.
 */
export async function stripeClient(config: Config): Promise<Stripe | null> {
  if (!config.STRIPE_SECRET_KEY) return null;
  const { default: Stripe } = await import('stripe');
  const api = config.STRIPE_API_URL ? new URL(config.STRIPE_API_URL) : null;
  return new Stripe(config.STRIPE_SECRET_KEY, {
    ...(api ? { host: api.hostname, port: Number(api.port || (api.protocol === 'https:' ? 443 : 80)), protocol: api.protocol.replace(':', '') as 'http' | 'https' } : {}),
    maxNetworkRetries: 2,
    telemetry: false,
    appInfo: { name: 'Tourdesk' },
  });
}

/** Which settings online payments still need (empty: ready). */
export function missingStripeSettings(config: Config) {
  return [!config.STRIPE_SECRET_KEY && 'STRIPE_SECRET_KEY', !config.STRIPE_WEBHOOK_SECRET && 'STRIPE_WEBHOOK_SECRET'].filter((x): x is string => Boolean(x));
}
