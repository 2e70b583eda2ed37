// Starts what the browser tests talk to, the way `npm start` runs the product, plus local
// stand-ins for the outside world: an SMTP sink that writes every e-mail to MAIL_DIR as JSON,
// an OpenID Connect provider (the `oidc-provider` package) for single sign-on, an oEmbed
// endpoint, and the fake of Stripe's API (apps/api/test/fakes/stripe-server.ts) on STRIPE_PORT:
// the API's Stripe SDK talks to it, the browser opens its hosted pages (Connect onboarding, the
// payment page) there, and it posts its signed events to the API's webhook.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import Provider from 'oidc-provider';
import { SMTPServer } from 'smtp-server';

const { PORT, MAIL_DIR, SMTP_PORT, OIDC_PORT, OEMBED_PORT, STRIPE_PORT } = process.env;
mkdirSync(MAIL_DIR, { recursive: true });

let seq = 0;
// A mailbox that is "unreachable" at first: the sink refuses the first two deliveries to any
// address with "+refuse" in it (as a mail server that is down would), and takes the third.
const refusals = new Map();
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onRcptTo(address, _session, callback) {
    const to = address.address;
    if (to.includes('+refuse')) {
      const n = (refusals.get(to) ?? 0) + 1;
      refusals.set(to, n);
      if (n <= 2) return callback(Object.assign(new Error('Mailbox unavailable, try again later'), { responseCode: 451 }));
    }
    callback();
  },
  onData(stream, _session, callback) {
    simpleParser(stream)
      .then((mail) => {
        const to = (Array.isArray(mail.to) ? mail.to : [mail.to]).flatMap((a) => a?.value.map((v) => v.address) ?? []);
        seq += 1;
        writeFileSync(path.join(MAIL_DIR, `${Date.now()}-${String(seq).padStart(4, '0')}.json`), JSON.stringify({ to, subject: mail.subject, text: mail.text, attachments: (mail.attachments ?? []).map((a) => ({ filename: a.filename, content: a.content.toString('base64') })) }));
        callback();
      })
      .catch(callback);
  },
});
await new Promise((resolve) => smtp.listen(Number(SMTP_PORT), '127.0.0.1', resolve));

const issuer = `http://127.0.0.1:${OIDC_PORT}`;
const provider = new Provider(issuer, {
  clients: [
    {
      client_id: 'tourdesk',
      client_secret: 'tourdesk-e2e-secret',
      redirect_uris: [`http://localhost:${PORT}/auth/oidc/callback`],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
  ],
  pkce: { required: () => true },
  claims: { openid: ['sub'], email: ['email', 'email_verified'] },
  // The development login form accepts any login; the login is taken as the e-mail address.
  async findAccount(_ctx, id) {
    return { accountId: id, claims: async () => ({ sub: id, email: id, email_verified: true }) };
  },
});
provider.proxy = false;
await new Promise((resolve) => provider.listen(Number(OIDC_PORT), '127.0.0.1', resolve));

// A stand-in for a video platform's oEmbed endpoint.
const oembed = createServer((req, res) => {
  const url = new URL(req.url, 'http://x').searchParams.get('url') ?? '';
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ title: `Video ${url.split('=').pop()}`, thumbnail_url: null, provider_name: 'YouTube' }));
});
await new Promise((resolve) => oembed.listen(Number(OEMBED_PORT), '127.0.0.1', resolve));

// The fake Stripe, as a child process (TypeScript through tsx); the API starts once it listens.
const stripeUrl = `http://127.0.0.1:${STRIPE_PORT}`;
const STRIPE_WEBHOOK_SECRET = 'whsec_e2e_tourdesk';
let stopping = false;
const stripe = spawn(process.execPath, ['--import', 'tsx', 'apps/api/test/fakes/stripe-server.ts'], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: {
    ...process.env,
    FAKE_STRIPE_PORT: STRIPE_PORT,
    FAKE_STRIPE_WEBHOOK_URL: `http://127.0.0.1:${PORT}/api/stripe/webhook/`,
    FAKE_STRIPE_WEBHOOK_SECRET: STRIPE_WEBHOOK_SECRET,
    FAKE_STRIPE_PUBLIC_URL: stripeUrl,
  },
});
stripe.stdout.pipe(process.stdout);
await new Promise((resolve, reject) => {
  stripe.stdout.on('data', (chunk) => String(chunk).includes('listening') && resolve());
  stripe.once('exit', (code) => reject(new Error(`the fake Stripe exited (${code}) before listening`)));
});

const api = spawn(process.execPath, ['apps/api/dist/server.js'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: 'tourdesk',
    OIDC_CLIENT_SECRET: 'tourdesk-e2e-secret',
    OIDC_DISPLAY_NAME: 'Test SSO',
    OEMBED_ENDPOINT: `http://127.0.0.1:${OEMBED_PORT}/oembed?url={url}`,
    STRIPE_SECRET_KEY: 'sk_test_e2e_tourdesk',
    STRIPE_WEBHOOK_SECRET,
    STRIPE_API_URL: stripeUrl,
    // Every browser of the suite signs in from 127.0.0.1, far more than the 30 sign-ins per
    // address and quarter hour an operator's office needs (the throttle has its API tests).
    LOGIN_LIMIT_PER_IP: '1000',
  },
});
const stop = () => {
  stopping = true;
  api.kill('SIGTERM');
  stripe.kill('SIGTERM');
  smtp.close(() => undefined);
  oembed.close();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
api.on('exit', (code) => process.exit(code ?? 0));
// Without it every payment would fail obscurely: stop everything, loudly.
stripe.on('exit', (code) => {
  if (stopping) return;
  console.error(`the fake Stripe exited (${code})`);
  api.kill('SIGTERM');
});
