import { createServer, type Server } from 'node:net';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase, serverUrlFor, withServerOptions } from './client';

describe('withServerOptions', () => {
  it('adds the settings to a URL without options', () => {
    const url = new URL(withServerOptions('postgres://app@db.example:5432/tourdesk?sslmode=require', '-c jit=off'));
    expect(url.searchParams.get('options')).toBe('-c jit=off');
    expect(url.searchParams.get('sslmode')).toBe('require');
    expect(url.pathname).toBe('/tourdesk');
  });
  it('keeps the options a URL already has', () => {
    const url = new URL(withServerOptions('postgres://app@db.example/tourdesk?options=-c%20statement_timeout%3D5s', '-c jit=off'));
    expect(url.searchParams.get('options')).toBe('-c statement_timeout=5s -c jit=off');
  });
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('the pool on a PostgreSQL server', () => {
  it('runs its statements without JIT, whatever the URL carries', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.searchParams.set('options', '-c statement_timeout=5s');
    const database = await openDatabase({ url: url.toString(), poolSize: 1 });
    try {
      const rows = (await database.db.execute(sql`show jit`)) as unknown as { rows: { jit: string }[] };
      expect(rows.rows[0]!.jit).toBe('off');
      const timeout = (await database.db.execute(sql`show statement_timeout`)) as unknown as { rows: { statement_timeout: string }[] };
      expect(timeout.rows[0]!.statement_timeout).toBe('5s');
    } finally {
      await database.close();
    }
  });
});

describe('serverUrlFor: how the pool connects is asked of the database, never guessed', () => {
  it('waits for a database that does not answer yet, then stops the start with its error', async () => {
    // A port that accepts nothing: each try is refused at once.
    const closed: Server = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const started = Date.now();
    await expect(serverUrlFor(`postgres://app@127.0.0.1:${port}/tourdesk`, 1_500)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    // It tried again for its time rather than answering with the options at the first refusal.
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
  });
});
