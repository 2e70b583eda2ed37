import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { BackupError, createBackup, restoreBackup } from '../src/backup/backup';
import type { Config } from '../src/config';
import { openAppDatabase, openConfiguredDatabase } from '../src/database';
import type { Database } from '../src/db/client';
import { DataDirLockedError, LOCK_FILE, lockDataDir } from '../src/lib/data-dir-lock';
import { storageFor } from '../src/lib/storage';
import { picture, uploadImage } from './catalog-fixtures';
import { createTestDatabase, testConfig, type TestDatabase } from './harness';
import { BASE, Browser } from './http-client';
import { createOrganisation, signIn } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * `npm run backup` / `npm run restore` (src/backup/backup.ts) on the engine of this run: PGlite in
 * a DATA_DIR of its own, or (TEST_DATABASE_URL) this file's own scratch database on the server,
 * created for it by the harness and dropped after. Media on local disk and in a real S3 server.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
const engine = serverUrl ? 'postgres' : 'pglite';

let sink: MailSink;
let s3: S3rver;
const s3Dir = mkdtempSync(path.join(tmpdir(), 'tourdesk-backup-s3-'));
let s3Env: Record<string, string>;
const scratch: TestDatabase[] = [];

beforeAll(async () => {
  sink = await startMailSink();
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: 'backup-media', configs: [] }] });
  const { port } = await s3.run();
  s3Env = { S3_BUCKET: 'backup-media', S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_FORCE_PATH_STYLE: 'true', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' };
});
afterAll(async () => {
  for (const db of scratch) await db.drop();
  await s3?.close();
  await sink?.close();
  rmSync(s3Dir, { recursive: true, force: true });
});

/** A configuration of this run's engine: PGlite in a fresh DATA_DIR, or a scratch database of its own on the server. */
async function engineConfig(env: Record<string, string>): Promise<Config> {
  if (!serverUrl) return testConfig({ SMTP_URL: sink.url, ...env });
  const db = await createTestDatabase();
  scratch.push(db);
  await db.database.close();
  return testConfig({ SMTP_URL: sink.url, DATABASE_URL: db.url!, ...env });
}

/**
 * Opens the configured database as the server does (PGlite: under DATA_DIR's lock); `migrate` for
 * a new PGlite folder (a scratch database on the server is a clone of the migrated template).
 */
async function open(config: Config, migrate = false): Promise<Database> {
  const database = serverUrl ? await openAppDatabase({ url: config.DATABASE_URL! }) : await openConfiguredDatabase(config);
  if (migrate) await database.migrate();
  return database;
}

async function withApp<T>(config: Config, work: (app: FastifyInstance) => Promise<T>, migrate = false): Promise<T> {
  const database = await open(config, migrate);
  const app = await buildApp({ config, database });
  await app.ready();
  try {
    return await work(app);
  } finally {
    await app.close();
    await database.close();
  }
}

/** What the test compares: the experiences and images (as the owner, every organisation), and the bytes of every stored medium. */
async function state(config: Config) {
  const database = await open(config);
  try {
    const rows = await database.asOwner(async (tx) => {
      const experiences = (await tx.execute(sql`select id, title from experience order by id`)) as unknown as { rows: unknown[] };
      const images = (await tx.execute(sql`select id, storage_key, thumbnail_key from image order by id`)) as unknown as { rows: { storage_key: string; thumbnail_key: string }[] };
      return { experiences: experiences.rows, images: images.rows };
    });
    const storage = storageFor(config);
    const media: Record<string, string> = {};
    for (const image of rows.images) {
      for (const key of [image.storage_key, image.thumbnail_key]) {
        const file = await storage.read(key);
        if (!file) continue;
        const chunks: Buffer[] = [];
        for await (const chunk of file.stream) chunks.push(Buffer.from(chunk as Buffer));
        media[key] = Buffer.concat(chunks).toString('base64');
      }
    }
    return { ...rows, media };
  } finally {
    await database.close();
  }
}

const otherEngineConfig = () =>
  serverUrl ? testConfig() : testConfig({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/nowhere' });

describe.each([
  ['local disk', () => ({})],
  ['S3', () => s3Env],
])(`backup and restore on ${engine}, media on %s`, (_name, mediaEnv: () => Record<string, string>) => {
  it('backs up, and a restore after changes finds the rows and media as they were; a corrupt or wrong-engine archive changes nothing', async () => {
    const config = await engineConfig(mediaEnv());
    const subdomain = `bk${Math.random().toString(36).slice(2, 8)}`;
    const email = `owner@${subdomain}.test`;
    const signedIn = async (app: FastifyInstance) => {
      const browser = new Browser(app, BASE);
      await signIn(browser, email, subdomain);
      return browser;
    };
    const seeded = await withApp(config, async (app) => {
      const owner = await createOrganisation(app, sink, { subdomain, email });
      const kept = (await owner.post('/api/experiences/', { title: 'Kept as it was', type: 'Rental' })).json().id as string;
      const renamed = (await owner.post('/api/experiences/', { title: 'Lake tour', type: 'Rental' })).json().id as string;
      const { id: imageId, res } = await uploadImage(owner, kept, await picture(320, 240));
      expect(res.statusCode, res.body).toBe(200);
      return { kept, renamed, imageId };
    }, !serverUrl);
    const before = await state(config);
    expect(before.images).toHaveLength(1);
    expect(Object.keys(before.media)).toHaveLength(2);

    const out = path.join(mkdtempSync(path.join(tmpdir(), 'tourdesk-archive-')), 'nightly.tar.gz');
    const lines: string[] = [];
    const { file, manifest } = await createBackup(config, { out, log: (l) => lines.push(l) });
    expect(file).toBe(out);
    expect(manifest).toMatchObject({ format: 'tourdesk-backup', engine, media: { count: 2, missing: [] } });
    expect(manifest.migration).toMatch(/^\d{4}_/);
    expect(manifest.counts.image).toBe(1);
    const listing = spawnSync('tar', ['-tzf', file], { encoding: 'utf8' }).stdout.split('\n');
    expect(listing).toContain('manifest.json');
    for (const key of Object.keys(before.media)) expect(listing).toContain(`media/${key}`);

    // Changes after the backup: an update, a delete (the image, and its files in storage), an insert.
    await withApp(config, async (app) => {
      const owner = await signedIn(app);
      expect((await owner.patch(`/api/experiences/${seeded.renamed}/`, { title: 'Renamed after the backup' })).statusCode).toBe(200);
      expect((await owner.delete(`/api/images/${seeded.imageId}/`)).statusCode).toBe(204);
      expect((await owner.post('/api/experiences/', { title: 'Added after the backup', type: 'Rental' })).statusCode).toBe(201);
    });
    const changed = await state(config);
    expect(changed.images).toHaveLength(0);
    expect(changed.media).toEqual({});
    expect(changed.experiences).not.toEqual(before.experiences);

    // A corrupt archive (cut short) is refused with a clear message, and nothing changes.
    const corrupt = path.join(path.dirname(out), 'corrupt.tar.gz');
    const bytes = readFileSync(file);
    writeFileSync(corrupt, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await expect(restoreBackup(config, corrupt)).rejects.toThrow(/is not a readable backup archive.*Nothing was changed/s);
    // An archive of the other engine is refused before anything is touched.
    const other = otherEngineConfig();
    await expect(restoreBackup(other, file)).rejects.toThrow(
      engine === 'pglite' ? /holds a backup of PGlite.*this configuration uses a PostgreSQL server/ : /holds a backup of a PostgreSQL server.*this configuration uses PGlite/,
    );
    expect(existsSync(path.join(other.dataDir, 'pglite'))).toBe(false);
    // An archive whose media file is a link to a file of this machine is refused: a restore would
    // copy that file into the media storage.
    const crafted = mkdtempSync(path.join(tmpdir(), 'tourdesk-crafted-'));
    expect(spawnSync('tar', ['-xzf', file, '-C', crafted]).status).toBe(0);
    const secret = path.join(mkdtempSync(path.join(tmpdir(), 'tourdesk-secret-')), 'secret.env');
    writeFileSync(secret, 'JWT_SECRET=not-for-the-bucket');
    const linked = path.join(crafted, 'media', Object.keys(before.media)[0]!);
    rmSync(linked);
    symlinkSync(secret, linked);
    const craftedFile = path.join(path.dirname(out), 'crafted.tar.gz');
    expect(spawnSync('tar', ['-czf', craftedFile, '-C', crafted, 'manifest.json', 'database', 'media']).status).toBe(0);
    await expect(restoreBackup(config, craftedFile)).rejects.toThrow(/neither a file nor a folder.*Nothing was changed/s);
    rmSync(crafted, { recursive: true, force: true });
    expect(await state(config)).toEqual(changed);
    if (engine === 'pglite') expect(readdirSync(config.dataDir).filter((f) => f.startsWith('pglite.before-restore'))).toEqual([]);

    const restored = await restoreBackup(config, file, { log: (l) => lines.push(l) });
    expect(restored.media).toBe(2);
    if (engine === 'pglite') {
      // What it replaced is kept beside it.
      expect(restored.movedAside).toMatch(/pglite\.before-restore-\d{8}T\d{6}Z$/);
      expect(existsSync(path.join(restored.movedAside!, 'PG_VERSION'))).toBe(true);
    }
    expect(await state(config)).toEqual(before);
    if (serverUrl) {
      // Into a database created empty for it (another machine's restore): the same rows and media.
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      const name = `tourdesk_bk_${randomBytes(5).toString('hex')}`;
      await admin.query(`create database ${name}`);
      try {
        const url = new URL(serverUrl);
        url.pathname = `/${name}`;
        const fresh = { ...config, DATABASE_URL: url.toString() };
        await restoreBackup(fresh, file);
        expect(await state(fresh)).toEqual(before);
      } finally {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
      // An archive older than the database (its last migration an earlier one) is refused: the tables
      // of the later migrations would stay behind. Nothing changes.
      const unpacked = mkdtempSync(path.join(tmpdir(), 'tourdesk-older-'));
      expect(spawnSync('tar', ['-xzf', file, '-C', unpacked]).status).toBe(0);
      const older = JSON.parse(readFileSync(path.join(unpacked, 'manifest.json'), 'utf8'));
      older.migration = '0064_gift-vouchers';
      writeFileSync(path.join(unpacked, 'manifest.json'), JSON.stringify(older));
      const olderFile = path.join(path.dirname(out), 'older.tar.gz');
      expect(spawnSync('tar', ['-czf', olderFile, '-C', unpacked, 'manifest.json', 'database', 'media']).status).toBe(0);
      await expect(restoreBackup(config, olderFile)).rejects.toThrow(/has migrations the archive lacks.*Restore into an empty database.*Nothing was changed/s);
      expect(await state(config)).toEqual(before);
      rmSync(unpacked, { recursive: true, force: true });
    }
    // The restored database serves: the owner signs in and sees the image again.
    await withApp(config, async (app) => {
      const owner = await signedIn(app);
      const images = await owner.get(`/api/images/?experience=${seeded.kept}`);
      expect(images.statusCode, images.body).toBe(200);
      expect(JSON.stringify(images.json())).toContain(seeded.imageId);
    });
  }, 300_000);
});

describe('the lock of DATA_DIR (PGlite is one process)', () => {
  it('refuses a second opener of the same folder, and a backup while the server runs', async () => {
    const config = testConfig();
    const first = await openConfiguredDatabase(config);
    try {
      expect(JSON.parse(readFileSync(path.join(config.dataDir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid, purpose: 'the server' });
      await expect(openConfiguredDatabase(config)).rejects.toThrow(/in use by the server \(pid \d+.*Stop the server first/s);
      await expect(createBackup(config)).rejects.toThrow(DataDirLockedError);
      await expect(restoreBackup(config, '/nonexistent.tar.gz')).rejects.toThrow(DataDirLockedError);
    } finally {
      await first.close();
    }
    // Closed: the lock is gone and the next opener gets it.
    expect(existsSync(path.join(config.dataDir, LOCK_FILE))).toBe(false);
    const second = await openConfiguredDatabase(config);
    await second.close();
  }, 120_000);

  it('takes over a lock whose process is gone, never one whose process runs', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tourdesk-lock-'));
    const file = path.join(dir, LOCK_FILE);
    const host = hostname();
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    writeFileSync(file, JSON.stringify({ pid: Number(gone), host, purpose: 'the server', since: '2026-01-01T00:00:00Z' }));
    const lock = lockDataDir(dir, 'npm run backup');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ pid: process.pid, purpose: 'npm run backup' });
    lock.release();
    expect(existsSync(file)).toBe(false);
    // The parent of this process runs: its lock stands.
    writeFileSync(file, JSON.stringify({ pid: process.ppid, host, purpose: 'the server', since: '2026-01-01T00:00:00Z' }));
    expect(() => lockDataDir(dir, 'npm run backup')).toThrow(DataDirLockedError);
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes over another host’s lock only once it has not been touched for a minute (a container recreated under a new name)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tourdesk-lock-'));
    const file = path.join(dir, LOCK_FILE);
    writeFileSync(file, JSON.stringify({ pid: 1, host: 'old-container', purpose: 'the server', since: '2026-01-01T00:00:00Z' }));
    // Touched just now (its holder's heartbeat): it stands.
    expect(() => lockDataDir(dir, 'the server')).toThrow(/in use by the server \(pid 1 on old-container/);
    // Untouched for two minutes: its holder is gone.
    const then = new Date(Date.now() - 120_000);
    utimesSync(file, then, then);
    const lock = lockDataDir(dir, 'the server');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    lock.release();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a missing archive is a clear error', async () => {
    await expect(restoreBackup(testConfig(), '/nonexistent/backup.tar.gz')).rejects.toThrow(BackupError);
  });
});
