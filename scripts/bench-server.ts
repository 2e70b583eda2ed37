/**
 * A server for npm run bench, in a process of its own so the load generator (autocannon, in the
 * parent) does not share its event loop: `app` is Tourdesk's API, `bare` is the baseline — a bare
 * Fastify handler running one indexed SELECT. Sends `{ address }` to the parent when listening.
 */
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';
import { openDatabase } from '../apps/api/src/db/client';

const url = process.env.BENCH_URL!;
// A clean exit on SIGINT, so a --cpu-prof profile is written.
process.on('SIGINT', () => process.exit(0));

async function main() {
  if (process.argv[2] === 'bare') {
    const bare = Fastify();
    const pool = new pg.Pool({ connectionString: url, max: 20 });
    bare.get<{ Querystring: { account: string; experience: string; from: string; to: string } }>('/slots', async (request) => {
      const q = request.query;
      return (await pool.query('select id, starts_at, capacity, booked from slot where account_id = $1 and experience_id = $2 and local_date between $3 and $4 order by starts_at', [q.account, q.experience, q.from, q.to])).rows;
    });
    process.send!({ address: await bare.listen({ port: 0, host: '127.0.0.1' }) });
    return;
  }
  // The API as it is deployed: its configuration's pool size (DATABASE_POOL_SIZE, or its default).
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', DATA_DIR: process.env.BENCH_DATA_DIR!, LOGIN_LIMIT_PER_IP: '100000', LOGIN_LIMIT_PER_EMAIL: '100000', ...(process.env.DATABASE_POOL_SIZE ? { DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE } : {}) });
  const database = await openDatabase({ url, poolSize: config.DATABASE_POOL_SIZE });
  const app = await buildApp({ config, database });
  process.send!({ address: await app.listen({ port: 0, host: '127.0.0.1' }) });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
