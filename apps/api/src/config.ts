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
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** The domain whose subdomains are the organisations: acme.localhost, acme.example.com. */
  BASE_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+$/, { error: 'must be a host name such as localhost or example.com' })
    .default('localhost'),
  /** Where the built web app lives; empty disables serving it (API-only). */
  WEB_DIST_DIR: z.string().optional(),
  SEED_DEMO: z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
});

export type Config = z.infer<typeof ZConfig> & { dataDir: string };

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings mean "not set", as in most twelve-factor tools.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ZConfig.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = issue.path.join('.');
      const got = env[name];
      return `  ${name}: ${issue.message}${got !== undefined ? ` (got ${JSON.stringify(got)})` : ''}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return { ...parsed.data, dataDir: path.resolve(parsed.data.DATA_DIR) };
}
