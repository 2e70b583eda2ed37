import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { openAppDatabase } from '../src/database';
import { createTestDatabase, type TestDatabase } from './harness';

/**
 * The real server (src/server.ts) as a child process, stopped with SIGTERM while a request and a job
 * are in progress: /api/health/ready answers 503 at once (live still 200), the request started
 * before the stop gets its answer, the job (an e-mail to an SMTP server that takes its time) is
 * finished and recorded as completed, and the process exits 0.
 * On a PostgreSQL server run (TEST_DATABASE_URL) it uses DATABASE_URL, otherwise PGlite in DATA_DIR.
 */
const apiDir = fileURLToPath(new URL('..', import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), 'tourdesk-stop-'));
let testDb: TestDatabase | undefined;

afterAll(async () => {
  await testDb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

/** An SMTP server that holds each message's DATA for `holdMs` before accepting it. */
async function slowMailServer(holdMs: number) {
  let started = 0;
  let accepted = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      started += 1;
      stream.resume();
      stream.on('end', () =>
        setTimeout(() => {
          accepted += 1;
          callback();
        }, holdMs),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    started: () => started,
    accepted: () => accepted,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('a stop (SIGTERM)', () => {
  it('turns not ready first, then finishes the request and the job in progress, and exits 0', async () => {
    const port = await freePort();
    const smtp = await slowMailServer(8_000);
    const env: Record<string, string> = {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      WEB_DIST_DIR: '',
      SMTP_URL: smtp.url,
      SHUTDOWN_READY_GRACE_MS: '3000',
      SHUTDOWN_TIMEOUT_MS: '30000',
    };
    if (process.env.TEST_DATABASE_URL) {
      testDb = await createTestDatabase();
      env.DATABASE_URL = testDb.url!;
    }
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: apiDir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await until('the server to start', () => output.includes('Tourdesk is running') || child.exitCode !== null, 180_000).catch((e: Error) => {
        throw new Error(`${e.message}:\n${output.slice(-3000)}`);
      });
      expect(child.exitCode, output).toBeNull();
      const base = `http://127.0.0.1:${port}`;
      const ready = await fetch(`${base}/api/health/ready/`);
      const body = (await ready.json()) as { status: string; migrations: { pending: number } };
      expect(ready.status, JSON.stringify(body)).toBe(200);
      expect(body).toMatchObject({ status: 'ready', migrations: { ok: true, pending: 0 }, shutting_down: false });
      expect((await fetch(`${base}/api/health/ready`)).status).toBe(200);

      // A job in progress: a password reset e-mail that the SMTP server takes 8 s to accept.
      const reset = await fetch(`${base}/api/users/reset_password/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'owner@demo.tourdesk.test' }) });
      expect(reset.status, await reset.text()).toBeLessThan(300);
      await until('the e-mail job to reach the SMTP server', () => smtp.started() === 1);

      // A request in progress: its body arrives slowly, half before the stop and half after the grace.
      const payload = JSON.stringify({ email: 'nobody@example.com' });
      const slow = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/api/users/reset_password/', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } });
      const answered = new Promise<number>((resolve, reject) => {
        slow.on('response', (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        slow.on('error', reject);
      });
      slow.write(payload.slice(0, 10));
      await new Promise((r) => setTimeout(r, 100));

      const stoppedAt = Date.now();
      child.kill('SIGTERM');
      // Not ready at once, while the process still answers (the load balancer's grace).
      await until('ready to answer 503', async () => (await fetch(`${base}/api/health/ready/`)).status === 503, 2_000);
      const notReady = (await (await fetch(`${base}/api/health/ready/`)).json()) as { shutting_down: boolean };
      expect(notReady.shutting_down).toBe(true);
      expect((await fetch(`${base}/api/health/live/`)).status).toBe(200);
      expect(Date.now() - stoppedAt).toBeLessThan(3_000);

      // Past the grace the listener is closed, and the request in progress still gets its answer.
      await until('the listener to close', () => fetch(`${base}/api/health/live/`).then(() => false, () => true), 6_000);
      expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(3_000);
      expect(smtp.accepted()).toBe(0);
      slow.end(payload.slice(10));
      expect(await answered).toBeLessThan(300);

      // The job was still running at the stop: the process waits for it, then exits cleanly.
      expect(await exited, output.slice(-3000)).toBe(0);
      expect(smtp.accepted()).toBe(1);
      expect(output).toContain('shutdown complete');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await smtp.close();
    }

    // The e-mail's job is recorded as completed, none left active.
    const database = testDb?.database ?? (await openAppDatabase({ dataDir: path.join(dataDir, 'pglite') }));
    try {
      const { rows } = await database.sql.executeSql(`select state, count(*)::int as n from pgboss.job where name = 'email-send' group by state`);
      const states = Object.fromEntries((rows as { state: string; n: number }[]).map((r) => [r.state, r.n]));
      expect(states.active ?? 0).toBe(0);
      expect(states.completed).toBeGreaterThanOrEqual(1);
    } finally {
      if (!testDb) await database.close();
    }
  }, 300_000);
});
