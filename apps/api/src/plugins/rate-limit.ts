import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { databaseRateLimitStore } from '../lib/rate-limit-store';

/**
 * @fastify/rate-limit, with its counters shared by every process: in Redis when REDIS_URL is set,
 * else in the database (lib/rate-limit-store.ts). Not global: the routes that need a limit make
 * their own with `app.createRateLimit()` (the web store's: modules/web-store/limits-routes.ts).
 * ioredis is loaded only when REDIS_URL is set.
 */
export async function registerRateLimit(app: FastifyInstance, config: Config, db: Db) {
  if (config.REDIS_URL) {
    const { Redis } = await import('ioredis');
    const redis = new Redis(config.REDIS_URL, { connectTimeout: 2000, maxRetriesPerRequest: 1, lazyConnect: true });
    await redis.connect();
    app.addHook('onClose', async () => {
      await redis.quit();
    });
    await app.register(fastifyRateLimit, { global: false, redis, nameSpace: 'tourdesk-rl:' });
  } else {
    await app.register(fastifyRateLimit, { global: false, store: databaseRateLimitStore(db) });
  }
}
