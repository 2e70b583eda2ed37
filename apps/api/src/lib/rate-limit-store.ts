import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { Db } from '../db/client';
import { hit, peek } from './throttle';

type Answer = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * @fastify/rate-limit's counters in the database's rate_limit table (a fixed window per key, one
 * atomic upsert per hit: lib/throttle.ts), so every process of the API counts the same calls. Used
 * unless REDIS_URL is set (then the plugin's own Redis store). Keys are prefixed `rl:`.
 */
export function databaseRateLimitStore(db: Db) {
  return class DatabaseRateLimitStore implements FastifyRateLimitStore {
    incr(key: string, answer: Answer, timeWindow?: number) {
      hit(db, `rl:${key}`, Math.max(1, Math.ceil((timeWindow ?? 60_000) / 1000))).then(
        (r) => answer(null, { current: r.count, ttl: r.retryAfter * 1000 }),
        (error: Error) => answer(error),
      );
    }

    read(key: string, answer: Answer, timeWindow?: number) {
      peek(db, `rl:${key}`, Math.max(1, Math.ceil((timeWindow ?? 60_000) / 1000))).then(
        (r) => answer(null, { current: r.count, ttl: r.retryAfter * 1000 }),
        (error: Error) => answer(error),
      );
    }

    child() {
      return this;
    }
  };
}
