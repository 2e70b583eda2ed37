import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openAppDatabase } from '../src/database';
import { PGLITE_EXTENSIONS } from '../src/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite: a tarball of a migrated data directory that every test file starts from. */
    pgliteSnapshot: string;
    /** PostgreSQL server: a migrated template database that every test file clones. */
    templateDatabase: string;
  }
}

/**
 * Migrates once per run and hands the result to every test file:
 * on PGlite a dumped data directory (a cold start plus migrations costs seconds, a load ~0.3 s);
 * on a PostgreSQL server (TEST_DATABASE_URL) a template database cloned by CREATE DATABASE.
 */
export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const template = `tourdesk_tpl_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${template}`);
    const url = new URL(serverUrl);
    url.pathname = `/${template}`;
    const database = await openAppDatabase({ url: url.toString(), poolSize: 1 });
    await database.migrate();
    await database.close();
    project.provide('templateDatabase', template);
    project.provide('pgliteSnapshot', '');
    return async () => {
      await admin.query(`drop database if exists ${template} with (force)`);
      await admin.end();
    };
  }

  const client = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  const database = await openAppDatabase({ pglite: client });
  await database.migrate();
  const dump = await client.dumpDataDir('none');
  await client.close();
  const dir = mkdtempSync(path.join(tmpdir(), 'tourdesk-test-'));
  const file = path.join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteSnapshot', file);
  project.provide('templateDatabase', '');
  return () => rmSync(dir, { recursive: true, force: true });
}
