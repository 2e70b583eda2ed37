import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './harness';

/**
 * The real entry point (src/server.ts) as a child process: it migrates, seeds, listens,
 * keeps its data across a restart, and on SIGTERM drains and exits cleanly.
 * On a PostgreSQL server run (TEST_DATABASE_URL) it uses DATABASE_URL, otherwise PGlite in DATA_DIR.
 */
const apiDir = fileURLToPath(new URL('..', import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), 'tourdesk-proc-'));
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

async function start(env: Record<string, string>, { ownGroup = false } = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: apiDir,
    env: { ...process.env, LOG_LEVEL: 'info', WEB_DIST_DIR: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, as under npm or a supervisor: a stop signals the whole group.
    detached: ownGroup,
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 45_000;
  while (!output.includes('Tourdesk is running')) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, exited, output: () => output };
}

async function stop(child: ChildProcess, exited: Promise<number | null>) {
  child.kill('SIGTERM');
  return exited;
}

describe('the server process', () => {
  it('starts, seeds once, keeps data across a restart, and exits cleanly on SIGTERM', async () => {
    const port = await freePort();
    const env: Record<string, string> = { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir };
    if (process.env.TEST_DATABASE_URL) {
      testDb = await createTestDatabase();
      await testDb.database.close();
      env.DATABASE_URL = testDb.url!;
    }

    const first = await start(env);
    expect(first.output()).toContain('created now');
    expect(first.output()).toContain(`http://localhost:${port}`);
    const health = await fetch(`http://127.0.0.1:${port}/api/health/`);
    expect(health.status).toBe(200);
    const notes = (await (await fetch(`http://127.0.0.1:${port}/api/system-notifications/`)).json()) as { count: number };
    expect(notes.count).toBe(3);
    // Every request log line carries the request id that the response announces.
    const requestId = health.headers.get('x-request-id');
    const lines = first.output().split('\n').filter((l) => l.includes(requestId!));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(JSON.parse(line).reqId).toBe(requestId);

    // A request in flight when SIGTERM arrives still gets its answer.
    const inFlight = fetch(`http://127.0.0.1:${port}/api/schema/`).then(async (r) => {
      await r.arrayBuffer(); // a client that reads its answer (an unread one would hold the socket)
      return r.status;
    });
    await new Promise((r) => setTimeout(r, 5));
    expect(await stop(first.child, first.exited), first.output().slice(-3000)).toBe(0);
    expect(await inFlight).toBe(200);
    expect(first.output()).toContain('shutdown complete');

    const second = await start(env);
    expect(second.output()).not.toContain('created now');
    const again = (await (await fetch(`http://127.0.0.1:${port}/api/system-notifications/`)).json()) as { count: number };
    expect(again.count).toBe(3);
    expect(await stop(second.child, second.exited)).toBe(0);
  }, 120_000);

  describe('stops a busy server within SHUTDOWN_TIMEOUT_MS', () => {
    const busy = (port: number) =>
      Array.from({ length: 40 }, () =>
        fetch(`http://127.0.0.1:${port}/api/schema/`)
          .then(async (r) => (await r.arrayBuffer(), r.status))
          .catch(() => 0),
      );
    const within = (exited: Promise<number | null>, ms: number) =>
      Promise.race([exited.then((code) => ({ code })), new Promise<{ code: 'still running' }>((r) => setTimeout(() => r({ code: 'still running' }), ms))]);

    it('while the reader of its output still reads', async () => {
      const port = await freePort();
      const env = { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: 'false', SHUTDOWN_TIMEOUT_MS: '3000', ...(testDb ? { DATABASE_URL: testDb.url! } : {}) };
      const server = await start(env, { ownGroup: true });
      const answers = busy(port);
      await new Promise((r) => setTimeout(r, 20));
      process.kill(-server.child.pid!, 'SIGTERM');
      expect(await within(server.exited, 8_000), server.output().slice(-2000)).toEqual({ code: 0 });
      // Requests in flight were answered, or refused once the server had stopped listening; none hung.
      expect((await Promise.all(answers)).every((s) => s === 200 || s === 0 || s === 503)).toBe(true);
    }, 60_000);

    it('when the reader of its output goes away with the stop (a pipe closed by a stopping supervisor)', async () => {
      const port = await freePort();
      const env = { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: 'false', SHUTDOWN_TIMEOUT_MS: '3000', ...(testDb ? { DATABASE_URL: testDb.url! } : {}) };
      const server = await start(env, { ownGroup: true });
      await (await fetch(`http://127.0.0.1:${port}/api/schema/`)).arrayBuffer();
      const answers = busy(port);
      process.kill(-server.child.pid!, 'SIGTERM');
      server.child.stdout!.destroy();
      server.child.stderr!.destroy();
      const ended = await within(server.exited, 8_000);
      if (ended.code === 'still running') process.kill(server.child.pid!, 'SIGKILL');
      // A clean exit: drained and closed, not killed by the watchdog (that would be code null).
      expect(ended.code).toBe(0);
      // A later SIGTERM would not have been needed: it is gone.
      expect(() => process.kill(server.child.pid!, 0)).toThrow();
      await Promise.all(answers);
    }, 60_000);
  });

  it('refuses a bad configuration with a clear message', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: apiDir,
      env: { ...process.env, PORT: 'eighty' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(err).toContain('Invalid configuration');
    expect(err).toContain('PORT: must be a whole number between 1 and 65535 (got "eighty")');
  }, 60_000);
});
