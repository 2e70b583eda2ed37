import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * Configuration comes only from the environment, is validated once at start,
 * and a bad value stops the process with a message naming the variable.
 */
const ZConfig = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce
    .number({ error: 'must be a whole number between 1 and 65535' })
    .int({ error: 'must be a whole number between 1 and 65535' })
    .min(1, { error: 'must be a whole number between 1 and 65535' })
    .max(65535, { error: 'must be a whole number between 1 and 65535' })
    .default(3000),
  DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// or postgresql:// URL' })
    .optional(),
  /** The owner's URL, for migrations and start-up reads (the signing key); DATABASE_URL when unset. */
  MIGRATION_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// or postgresql:// URL' })
    .optional(),
  /**
   * A streaming replica of DATABASE_URL's database (same users), for reads that tolerate a moment's
   * lag (the routes that use it are listed in ARCHITECTURE.md, "Topology"). Never for a read that
   * decides a sale, a payment or an admission.
   */
  DATABASE_READ_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// or postgresql:// URL' })
    .optional(),
  /** Run the migrations at start: by default yes, except with NODE_ENV=production (npm run migrate). */
  MIGRATE_ON_START: z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true' || v === '1')),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** The domain whose subdomains are the organisations: acme.localhost, acme.example.com. */
  BASE_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+$/, { error: 'must be a host name such as localhost or example.com' })
    .default('localhost'),
  /** Where the built web app lives; empty disables serving it (API-only). */
  WEB_DIST_DIR: z.string().optional(),
  /** Where the built web store lives (apps/store/dist by default). */
  STORE_DIST_DIR: z.string().optional(),
  /** Seed the demo organisation at start: by default yes, except with NODE_ENV=production. */
  SEED_DEMO: z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true' || v === '1')),
  /**
   * How many holds for one slot may go to the database in one statement (gathered while that slot's
   * previous statement runs); 1 sends every hold alone, at once.
   */
  HOLD_BATCH_MAX: z.coerce.number().int().min(1).max(256).default(64),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /**
   * On SIGTERM the process first answers 503 at /api/health/ready for this long, still serving, so a
   * load balancer stops sending it traffic (set it above the balancer's interval × fall); then it drains.
   */
  /**
   * The bearer token a Prometheus scrape of /metrics sends (Authorization: Bearer …); unset: /metrics
   * answers 404. At least 16 characters.
   */
  METRICS_TOKEN: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
  SHUTDOWN_READY_GRACE_MS: z.coerce.number().int().min(0).max(120_000).default(1_000),
  /** The bare origin users reach, e.g. https://example.com; defaults to http://BASE_DOMAIN:PORT. */
  PUBLIC_URL: z.url({ error: 'must be a URL such as https://example.com' }).optional(),
  /** Trust X-Forwarded-* from a load balancer in front (the client's address for throttling). */
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /**
   * Signing keys for access tokens, separated by spaces: the first signs, every one checks (rotation).
   * When neither this nor JWT_SECRET_FILE is set, one is generated once and kept in the database.
   */
  JWT_SECRET: z
    .string()
    .refine((v) => v.trim().split(/\s+/).every((k) => k.length >= 32), { error: 'each key must be at least 32 characters' })
    .optional(),
  /** A file holding the signing keys as JWT_SECRET does (spaces or new lines between them). */
  JWT_SECRET_FILE: z.string().optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(2).max(86_400).default(900),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(14),
  /** smtp://user:pass@host:port or smtps://…; when unset, e-mails are written to the log. */
  SMTP_URL: z.string().regex(/^smtps?:\/\//, { error: 'must be an smtp:// or smtps:// URL' }).optional(),
  MAIL_FROM: z.string().optional(),
  /** How often an e-mail is tried again when the SMTP server does not take it, and the first wait (doubling each time). */
  EMAIL_RETRY_LIMIT: z.coerce.number().int().min(0).max(50).default(12),
  EMAIL_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(15),
  /**
   * Outgoing webhooks go only to public addresses; `true` also allows loopback, private (RFC 1918,
   * ULA) and CGNAT addresses, for a deployment whose receivers run on the same machine or network.
   */
  WEBHOOKS_ALLOW_PRIVATE: z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** How often a webhook delivery is tried again, and the first wait (doubling each time): with 12 and 20 s, about 23 hours. */
  WEBHOOK_RETRY_LIMIT: z.coerce.number().int().min(0).max(30).default(12),
  WEBHOOK_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(20),
  RECAPTCHA_SECRET: z.string().optional(),
  RECAPTCHA_SITE_KEY: z.string().optional(),
  RECAPTCHA_VERIFY_URL: z.url().default('https://www.google.com/recaptcha/api/siteverify'),
  LOGIN_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
  /**
   * Failed sign-ins for one e-mail address before each further attempt waits: 1 s after the last
   * failure, doubling with each failure up to LOGIN_DELAY_MAX_SECONDS (429 with Retry-After until
   * then; never a lock-out). A success starts the count afresh; so does LOGIN_LIMIT_WINDOW_SECONDS
   * without a failure.
   */
  LOGIN_LIMIT_PER_EMAIL: z.coerce.number().int().min(1).default(5),
  LOGIN_DELAY_MAX_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  LOGIN_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  /** Calls a partner's API key may make per window (the OCTO and public booking APIs); 429 with Retry-After beyond. */
  API_KEY_RATE_LIMIT: z.coerce.number().int().min(1).default(1200),
  API_KEY_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /**
   * Where rate limits are counted: Redis when set (redis://…), else the database's rate_limit table;
   * either way every process of the API shares them.
   */
  REDIS_URL: z.string().regex(/^rediss?:\/\//, { error: 'must be a redis:// or rediss:// URL' }).optional(),
  /**
   * The public web store's limits, per client address and per store, in a window of
   * STORE_RATE_WINDOW_SECONDS (429 with Retry-After beyond): new carts, seats held (lines) and
   * orders (an online payment started counts as an order). See modules/web-store/README.md.
   */
  STORE_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  STORE_CARTS_PER_ADDRESS: z.coerce.number().int().min(1).default(30),
  STORE_LINES_PER_ADDRESS: z.coerce.number().int().min(1).default(60),
  STORE_ORDERS_PER_ADDRESS: z.coerce.number().int().min(1).default(10),
  STORE_CARTS_PER_STORE: z.coerce.number().int().min(1).default(3000),
  STORE_LINES_PER_STORE: z.coerce.number().int().min(1).default(6000),
  STORE_ORDERS_PER_STORE: z.coerce.number().int().min(1).default(1000),
  /** After this many carts, lines or orders from one address in the window, each one more carries a solved proof-of-work challenge. */
  STORE_CHALLENGE_AFTER_CARTS: z.coerce.number().int().min(0).default(5),
  STORE_CHALLENGE_AFTER_LINES: z.coerce.number().int().min(0).default(15),
  STORE_CHALLENGE_AFTER_ORDERS: z.coerce.number().int().min(0).default(3),
  /**
   * The challenge's work (ALTCHA, PBKDF2/SHA-256): iterations per try, and the hex digits of zeros the
   * key starts with (about 16^digits tries on average). 500 and 3: a few tenths of a second in a browser.
   */
  STORE_CHALLENGE_COST: z.coerce.number().int().min(1).max(1_000_000).default(500),
  STORE_CHALLENGE_DIGITS: z.coerce.number().int().min(1).max(6).default(3),
  /** Seats one guest cart, and one client address across its carts, may hold at once in an organisation's pool. */
  STORE_SEATS_PER_CART: z.coerce.number().int().min(1).default(30),
  STORE_SEATS_PER_ADDRESS: z.coerce.number().int().min(1).default(60),
  /**
   * A translator's and developer's check: the web store also answers at /s/{slug}/en-XA/… in the
   * pseudo-locale (every letter of its catalog accented), so text that is not in the catalog shows.
   */
  STORE_PSEUDO_LOCALE: z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** Sign-in with an OpenID Connect provider, on when all three are set. */
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_DISPLAY_NAME: z.string().default('single sign-on'),
  /**
   * Stripe, for online payments (Connect) and plans (Billing). Without STRIPE_SECRET_KEY no online
   * payment is offered. STRIPE_API_URL points the SDK at another host (tests: a local fake).
   */
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_(test|live)_/, { error: 'must be a Stripe secret key (sk_test_… or sk_live_…)' }).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_/, { error: 'must be a Stripe webhook signing secret (whsec_…)' }).optional(),
  STRIPE_API_URL: z.url().optional(),
  /** How long a customer has to pay online, in minutes (Stripe allows 30 to 1440); the seats stay held as long. */
  ONLINE_PAYMENT_MINUTES: z.coerce.number().int().min(30).max(1440).default(30),
  /** Media in an S3-compatible object store (AWS S3, MinIO, R2, …) instead of DATA_DIR, when a bucket is set. */
  S3_BUCKET: z.string().min(3).optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** Where video titles and thumbnails are looked up: an oEmbed URL with {url} in it; unset uses YouTube's and Vimeo's own. */
  OEMBED_ENDPOINT: z.string().regex(/^https?:\/\/.*\{url\}/, { error: 'must be an http(s) URL containing {url}' }).optional(),
  /** A geocoder speaking Photon's API (`{url}/api?q=…`) for addresses to the street; unset: the embedded towns and cities. */
  GEOCODER_URL: z.url().optional(),
  /** Map tiles for the meeting points' map preview, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png; unset: no map. */
  MAP_TILE_URL: z.string().regex(/^https?:\/\/.*\{z\}.*\{x\}.*\{y\}/, { error: 'must be an http(s) URL with {z}, {x} and {y}' }).optional(),
});

export type Config = Omit<z.infer<typeof ZConfig>, 'SEED_DEMO' | 'MIGRATE_ON_START'> & {
  SEED_DEMO: boolean;
  MIGRATE_ON_START: boolean;
  /** The signing keys from JWT_SECRET or JWT_SECRET_FILE, the signing one first; undefined: kept in the database. */
  jwtSecrets?: string[];
  dataDir: string;
  /** The bare origin, without a trailing slash. */
  publicUrl: URL;
};

export class ConfigError extends Error {}

const SECRET_NAME = /SECRET|PASSWORD|TOKEN|KEY|_URL$/;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings mean "not set", as in most twelve-factor tools.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ZConfig.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = issue.path.join('.');
      const got = env[name];
      // A secret, or a URL that may carry a password, is never printed back.
      const shown = got === undefined ? '' : SECRET_NAME.test(name) ? ' (value not shown)' : ` (got ${JSON.stringify(got)})`;
      return `  ${name}: ${issue.message}${shown}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const data = parsed.data;
  const publicUrl = new URL(data.PUBLIC_URL ?? `http://${data.BASE_DOMAIN}:${data.PORT}`);
  const production = data.NODE_ENV === 'production';
  return {
    ...data,
    SEED_DEMO: data.SEED_DEMO ?? !production,
    MIGRATE_ON_START: data.MIGRATE_ON_START ?? !production,
    jwtSecrets: signingSecrets(data.JWT_SECRET, data.JWT_SECRET_FILE),
    dataDir: path.resolve(data.DATA_DIR),
    publicUrl,
  };
}

/** The keys of JWT_SECRET, or of the file JWT_SECRET_FILE names (never both); the value is never printed. */
function signingSecrets(inline: string | undefined, file: string | undefined) {
  if (inline && file) throw new ConfigError('Invalid configuration:\n  JWT_SECRET_FILE: set JWT_SECRET or JWT_SECRET_FILE, not both');
  if (inline) return inline.trim().split(/\s+/);
  if (!file) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  JWT_SECRET_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const keys = text.trim().split(/\s+/).filter(Boolean);
  if (keys.length === 0 || keys.some((k) => k.length < 32)) throw new ConfigError('Invalid configuration:\n  JWT_SECRET_FILE: each key must be at least 32 characters (value not shown)');
  return keys;
}
