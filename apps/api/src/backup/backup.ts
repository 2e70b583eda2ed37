import { spawn } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Config } from '../config';
import { pgliteDir } from '../database';
import { MIGRATIONS_DIR, PGLITE_EXTENSIONS } from '../db/client';
import { readMigrations } from '../db/migrate';
import { lockDataDir } from '../lib/data-dir-lock';
import { isStorageKey, storageFor, type Storage } from '../lib/storage';
import { lastMigrationAt, referencedMediaKeys, rowCounts, type BackupSession } from './queries';

/**
 * `npm run backup` and `npm run restore` (README.md, "Backups"). One archive,
 * tourdesk-backup-<UTC time>.tar.gz, holds:
 * - manifest.json: the engine, when, the last migration applied, the version, a few row counts and
 *   the media it holds;
 * - database/: PGlite's data folder (database/pglite/, copied while the lock of DATA_DIR keeps every
 *   other opener out), or a server's `pg_dump -Fc` (database/postgres.dump, taken in one snapshot
 *   while the server keeps serving);
 * - media/: every stored object the database references (image.storage_key, thumbnail_key), read
 *   through the Storage interface, so local disk and S3 alike, put back through it on restore.
 * A restore checks the whole archive before it changes anything, and keeps what it replaces (PGlite:
 * the old folder moved aside; a server: pg_restore in one transaction).
 */
export const FORMAT = 'tourdesk-backup';

export interface BackupManifest {
  format: typeof FORMAT;
  format_version: 1;
  engine: 'pglite' | 'postgres';
  created_at: string;
  /** The journal tag of the last migration the database had applied (null: none). */
  migration: string | null;
  app_version: string;
  counts: Record<string, number>;
  media: { count: number; missing: string[] };
}

/** A backup or restore that cannot go on: its message says why and what to do. */
export class BackupError extends Error {}

type Log = (line: string) => void;

const engineOf = (config: Config): BackupManifest['engine'] => (config.DATABASE_URL ? 'postgres' : 'pglite');
const ENGINE_NAME = { pglite: 'PGlite (the embedded database in DATA_DIR)', postgres: 'a PostgreSQL server (DATABASE_URL)' };

/** 20261128T041200Z */
const stamp = (at: Date) => at.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

function appVersion() {
  try {
    return String((JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, '..', 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown');
  } catch {
    return 'unknown';
  }
}

function migrationTag(at: number | null) {
  if (at === null) return null;
  return readMigrations(MIGRATIONS_DIR).find((m) => m.when === at)?.tag ?? `unknown (${at})`;
}

/** Runs a program; rejects with its standard error. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(new BackupError(error.code === 'ENOENT' ? `${command} is not installed (on Debian: apt-get install ${command === 'tar' ? 'tar' : 'postgresql-client'})` : `${command}: ${error.message}`)),
    );
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new BackupError(`${command} failed (exit ${code}): ${Buffer.concat(err).toString('utf8').trim()}`));
    });
  });
}

/** A libpq connection for pg_dump/pg_restore: the URL without its password, which goes in PGPASSWORD (never on a command line). */
function libpq(url: string) {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { url: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

const ownerUrl = (config: Config) => config.MIGRATION_DATABASE_URL ?? config.DATABASE_URL!;

async function readAll(stream: NodeJS.ReadableStream) {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** Copies each key's object into dir/media/{key}; answers the keys that were not found. */
async function copyMedia(storage: Storage, keys: string[], dir: string, log: Log) {
  const missing: string[] = [];
  for (const key of keys) {
    const file = isStorageKey(key) ? await storage.read(key) : null;
    if (!file) {
      missing.push(key);
      continue;
    }
    const target = path.join(dir, 'media', key);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, await readAll(file.stream));
  }
  if (missing.length > 0) log(`warning: ${missing.length} media object(s) the database references were not found in storage: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}`);
  return missing;
}

const pgliteExists = (dir: string) => existsSync(path.join(dir, 'PG_VERSION'));

const pgliteSession = (client: PGlite): BackupSession => ({ query: async <R,>(text: string, params?: unknown[]) => (await client.query<R>(text, params)) as { rows: R[] } });

export interface BackupResult {
  file: string;
  manifest: BackupManifest;
}

/** `npm run backup`: writes the archive (default DATA_DIR/backups/tourdesk-backup-<time>.tar.gz) and answers it. */
export async function createBackup(config: Config, options: { out?: string; log?: Log; now?: Date } = {}): Promise<BackupResult> {
  const log = options.log ?? (() => undefined);
  const engine = engineOf(config);
  const createdAt = options.now ?? new Date();
  const out = path.resolve(options.out ?? path.join(config.dataDir, 'backups', `tourdesk-backup-${stamp(createdAt)}.tar.gz`));
  mkdirSync(path.dirname(out), { recursive: true });
  const staging = mkdtempSync(path.join(tmpdir(), 'tourdesk-backup-'));
  mkdirSync(path.join(staging, 'database'));
  mkdirSync(path.join(staging, 'media'));
  const storage = storageFor(config);
  try {
    let facts: { keys: string[]; at: number | null; counts: Record<string, number> };
    let missing: string[];
    if (engine === 'pglite') {
      const dir = pgliteDir(config);
      if (!pgliteExists(dir)) throw new BackupError(`There is no database in ${dir} to back up.`);
      const lock = lockDataDir(config.dataDir, 'npm run backup');
      try {
        const client = await PGlite.create({ dataDir: dir, extensions: PGLITE_EXTENSIONS });
        try {
          const session = pgliteSession(client);
          facts = { keys: await referencedMediaKeys(session), at: await lastMigrationAt(session), counts: await rowCounts(session) };
        } finally {
          // A clean shutdown: the folder copied next is consistent as it stands.
          await client.close();
        }
        cpSync(dir, path.join(staging, 'database', 'pglite'), { recursive: true });
        log(`database: copied PGlite's folder ${dir}`);
        missing = await copyMedia(storage, facts.keys, staging, log);
      } finally {
        lock.release();
      }
    } else {
      // One snapshot for the dump and the list of media: pg_dump reads the very state the keys came from.
      const client = new pg.Client({ connectionString: ownerUrl(config), application_name: 'tourdesk-backup' });
      await client.connect();
      try {
        await client.query('begin isolation level repeatable read read only');
        const snapshot = (await client.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0]!.id;
        const session: BackupSession = { query: async <R,>(text: string, params?: unknown[]) => (await client.query(text, params)) as unknown as { rows: R[] } };
        facts = { keys: await referencedMediaKeys(session), at: await lastMigrationAt(session), counts: await rowCounts(session) };
        const conn = libpq(ownerUrl(config));
        await run('pg_dump', ['--format=custom', `--snapshot=${snapshot}`, '--file', path.join(staging, 'database', 'postgres.dump'), '--dbname', conn.url], conn.env);
        await client.query('commit');
        log('database: pg_dump of the server (custom format)');
      } finally {
        await client.end().catch(() => undefined);
      }
      missing = await copyMedia(storage, facts.keys, staging, log);
    }
    const manifest: BackupManifest = {
      format: FORMAT,
      format_version: 1,
      engine,
      created_at: createdAt.toISOString(),
      migration: migrationTag(facts.at),
      app_version: appVersion(),
      counts: facts.counts,
      media: { count: facts.keys.length - missing.length, missing },
    };
    writeFileSync(path.join(staging, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    // Written beside its name, then renamed: a backup that fails leaves no half archive under the name.
    const partial = `${out}.partial`;
    await run('tar', ['-czf', partial, '-C', staging, 'manifest.json', 'database', 'media']);
    renameSync(partial, out);
    log(`media: ${manifest.media.count} object(s)`);
    log(`wrote ${out} (${(statSync(out).size / 1024 / 1024).toFixed(1)} MB; migration ${manifest.migration ?? 'none'}; ${Object.entries(manifest.counts).map(([t, n]) => `${t} ${n}`).join(', ')})`);
    return { file: out, manifest };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(`${out}.partial`, { force: true });
  }
}

/**
 * The first entry under dir that is neither a plain file nor a folder (a symbolic link, a device…),
 * relative to dir, or null. A backup never holds one; a crafted archive's link would have the
 * restore copy a file of this machine into the media storage or the database's folder.
 */
function notPlain(dir: string, base = dir): string | null {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    const info = lstatSync(full);
    if (info.isDirectory()) {
      const found = notPlain(full, base);
      if (found) return found;
    } else if (!info.isFile()) return path.relative(base, full);
  }
  return null;
}

/** Unpacks an archive into dir and answers its manifest, or throws a BackupError saying what is wrong with it. */
async function unpack(file: string, dir: string, engine: BackupManifest['engine']): Promise<BackupManifest> {
  if (!existsSync(file)) throw new BackupError(`No such backup: ${file}`);
  try {
    await run('tar', ['-xzf', path.resolve(file), '-C', dir, '--no-same-owner']);
  } catch (error) {
    throw new BackupError(`${file} is not a readable backup archive (${error instanceof Error ? error.message : String(error)}). Nothing was changed.`);
  }
  const odd = notPlain(dir);
  if (odd) throw new BackupError(`${file} holds ${odd}, which is neither a file nor a folder (a link could make a restore read or write outside the archive). Nothing was changed.`);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as BackupManifest;
  } catch {
    throw new BackupError(`${file} holds no readable manifest.json: it is not a Tourdesk backup. Nothing was changed.`);
  }
  if (manifest.format !== FORMAT || manifest.format_version !== 1) throw new BackupError(`${file} is not a Tourdesk backup of a format this version reads. Nothing was changed.`);
  if (manifest.engine !== engine) {
    throw new BackupError(
      `${file} holds a backup of ${ENGINE_NAME[manifest.engine] ?? manifest.engine}, but this configuration uses ${ENGINE_NAME[engine]}. ` +
        'Restore it with the configuration it was taken with (then, to move engines, use pg_dump/psql yourself). Nothing was changed.',
    );
  }
  const known = readMigrations(MIGRATIONS_DIR).map((m) => m.tag);
  if (manifest.migration !== null && !known.includes(manifest.migration)) {
    throw new BackupError(`${file} was taken by a newer version of Tourdesk (its database has migration ${manifest.migration}, which this version does not know). Restore it with that version or a later one. Nothing was changed.`);
  }
  return manifest;
}

/** The media files of an unpacked archive, by key; refuses a name that is not a storage key. */
function mediaIn(dir: string): string[] {
  const root = path.join(dir, 'media');
  if (!existsSync(root)) return [];
  const keys: string[] = [];
  for (const account of readdirSync(root, { withFileTypes: true })) {
    if (!account.isDirectory()) throw new BackupError(`The archive's media/ holds ${account.name}, which is not a media key. Nothing was changed.`);
    for (const name of readdirSync(path.join(root, account.name))) {
      const key = `${account.name}/${name}`;
      if (!isStorageKey(key)) throw new BackupError(`The archive's media/ holds ${key}, which is not a media key. Nothing was changed.`);
      keys.push(key);
    }
  }
  return keys;
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** PGlite: where the folder it replaced was moved. */
  movedAside?: string;
  media: number;
}

/**
 * `npm run restore -- <file>`: puts the database and media of the archive back. With PGlite the
 * server must be stopped (DATA_DIR's lock); with a server, stop the API's processes too (pg_restore
 * drops and recreates every table in one transaction, waiting for their locks).
 */
export async function restoreBackup(config: Config, file: string, options: { log?: Log; now?: Date } = {}): Promise<RestoreResult> {
  const log = options.log ?? (() => undefined);
  const engine = engineOf(config);
  const storage = storageFor(config);
  if (engine === 'pglite') {
    mkdirSync(config.dataDir, { recursive: true });
    const lock = lockDataDir(config.dataDir, 'npm run restore');
    // Unpacked inside DATA_DIR: the folder is then renamed into place, never copied half.
    const work = mkdtempSync(path.join(config.dataDir, '.restore-'));
    try {
      const manifest = await unpack(file, work, engine);
      const restored = path.join(work, 'database', 'pglite');
      if (!pgliteExists(restored)) throw new BackupError(`${file} holds no PGlite data folder. Nothing was changed.`);
      try {
        // The copy opens and answers before it replaces anything.
        const client = await PGlite.create({ dataDir: restored, extensions: PGLITE_EXTENSIONS });
        try {
          await lastMigrationAt(pgliteSession(client));
        } finally {
          await client.close();
        }
      } catch (error) {
        throw new BackupError(`The database in ${file} does not open (${error instanceof Error ? error.message : String(error)}). Nothing was changed.`);
      }
      const keys = mediaIn(work);
      const live = pgliteDir(config);
      let movedAside: string | undefined;
      if (existsSync(live)) {
        movedAside = `${live}.before-restore-${stamp(options.now ?? new Date())}`;
        renameSync(live, movedAside);
        log(`moved the current database aside to ${movedAside}`);
      }
      renameSync(restored, live);
      log(`database: restored PGlite's folder ${live} from ${file} (taken ${manifest.created_at}, migration ${manifest.migration ?? 'none'})`);
      await putMedia(storage, work, keys, log);
      return { manifest, movedAside, media: keys.length };
    } finally {
      rmSync(work, { recursive: true, force: true });
      lock.release();
    }
  }
  const work = mkdtempSync(path.join(tmpdir(), 'tourdesk-restore-'));
  try {
    const manifest = await unpack(file, work, engine);
    const dump = path.join(work, 'database', 'postgres.dump');
    if (!existsSync(dump)) throw new BackupError(`${file} holds no pg_dump of a server. Nothing was changed.`);
    let listing: string;
    try {
      listing = await run('pg_restore', ['--list', dump]);
    } catch (error) {
      throw new BackupError(`The dump in ${file} is not readable (${error instanceof Error ? error.message : String(error)}). Nothing was changed.`);
    }
    const keys = mediaIn(work);
    await refuseNewerDatabase(config, manifest, file);
    const conn = libpq(ownerUrl(config));
    // pg_restore --clean alone fails on the job queue's partitioned tables (it drops a partition's
    // inherited key before the table: "cannot drop inherited constraint"). So the script pg_restore
    // writes (--clean --if-exists: drop each object, then create it) runs after dropping each schema
    // of the dump but public, whole, and all of it in one transaction as the owner (psql
    // --single-transaction, stopping at the first error): either the whole dump is in, or the
    // database is as it was. --no-owner: what it creates belongs to the owner restoring it (roles
    // are the cluster's and already exist); grants and row-level security policies come back.
    const schemas = [...listing.matchAll(/^\d+; \d+ \d+ SCHEMA - (\S+) /gm)].map((m) => m[1]!).filter((name) => name !== 'public');
    const prelude = path.join(work, 'prelude.sql');
    writeFileSync(prelude, schemas.map((name) => `drop schema if exists "${name.replaceAll('"', '""')}" cascade;\n`).join(''));
    const script = path.join(work, 'restore.sql');
    await run('pg_restore', ['--clean', '--if-exists', '--no-owner', '--file', script, dump]);
    try {
      await run('psql', ['--no-psqlrc', '--quiet', '--single-transaction', '--set', 'ON_ERROR_STOP=1', '--file', prelude, '--file', script, '--dbname', conn.url], conn.env);
    } catch (error) {
      throw new BackupError(`The restore failed; its transaction was rolled back and the database is as it was. ${error instanceof Error ? error.message : String(error)}`);
    }
    log(`database: restored the server's database from ${file} (taken ${manifest.created_at}, migration ${manifest.migration ?? 'none'})`);
    await putMedia(storage, work, keys, log);
    return { manifest, media: keys.length };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * A server's restore drops and recreates what the dump holds; a table a later migration added would
 * stay behind, and the next migration run would fail on it. So a database with migrations the
 * archive lacks is refused: restore into an empty database (or take the archive with that version).
 */
async function refuseNewerDatabase(config: Config, manifest: BackupManifest, file: string) {
  const client = new pg.Client({ connectionString: ownerUrl(config), application_name: 'tourdesk-restore' });
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(`Cannot connect to the database to restore into (${error instanceof Error ? error.message : String(error)}). Nothing was changed.`);
  }
  try {
    const at = await lastMigrationAt({ query: async <R,>(text: string, params?: unknown[]) => (await client.query(text, params)) as unknown as { rows: R[] } });
    const archived = readMigrations(MIGRATIONS_DIR).find((m) => m.tag === manifest.migration)?.when ?? 0;
    if (at !== null && at > archived) {
      throw new BackupError(
        `The database has migrations the archive lacks (it is at ${migrationTag(at)}, ${file} at ${manifest.migration ?? 'none'}): a restore over it would leave their tables behind. ` +
          'Restore into an empty database (createdb, then point DATABASE_URL at it). Nothing was changed.',
      );
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function putMedia(storage: Storage, dir: string, keys: string[], log: Log) {
  for (const key of keys) await storage.put(key, readFileSync(path.join(dir, 'media', key)));
  log(`media: put back ${keys.length} object(s)`);
}
