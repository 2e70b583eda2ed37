import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The lint rule layers/module-layers (eslint.config.js) itself: each way of touching the database
 * outside a queries file is reported, whatever the handle is called, and a queries file may.
 * The probes are linted as the text of real files (their types resolve as in the project).
 */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: repo });
const service = path.join(repo, 'apps/api/src/modules/locations/service.ts');
const lib = path.join(repo, 'apps/api/src/lib/csv.ts');
const queries = path.join(repo, 'apps/api/src/modules/help-videos/queries.ts');
const layerProblems = async (text: string, filePath = service) => {
  const [result] = await eslint.lintText(text, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'layers/module-layers' || m.fatal).map((m) => m.message);
};

const head = `import type { Db, SqlExecutor } from '../../db/client';\nimport type { TenantCtx } from '../../lib/crud';\nimport type pg from 'pg';\n`;
const holes: Record<string, string> = {
  'a handle called trx': `${head}export const f = (trx: Db) => trx.execute('select 1' as never);`,
  'a handle renamed by destructuring': `${head}export function f(ctx: TenantCtx) { const { tx: t } = ctx; return t.select(); }`,
  'a pg pool': `${head}export const f = (pool: pg.Pool) => pool.query('select 1');`,
  'a computed property': `${head}export const f = (ctx: TenantCtx) => ctx.tx['select']();`,
  'a bound method': `${head}export const f = (ctx: TenantCtx) => ctx.tx.execute.bind(ctx.tx);`,
  'a destructured method': `${head}export function f(tx: Db) { const { select } = tx; return select; }`,
  'the SQL executor': `${head}export const f = (s: SqlExecutor) => s.executeSql('select 1');`,
  'a re-export of Drizzle': `export { sql } from 'drizzle-orm';`,
  'a re-export of the schema': `export * from '../../db/schema';`,
  'a dynamic import of Drizzle': `export const f = async () => (await import('drizzle-orm')).sql;`,
  'a dynamic import of the schema': `export const f = async () => (await import('../../db/schema')).experience;`,
  'an import of Drizzle': `import { sql } from 'drizzle-orm';\nexport const f = sql;`,
  'a value import from src/db': `import { experience } from '../../db/schema';\nexport const f = experience;`,
  'the request in a service': `import type { FastifyRequest } from 'fastify';\nexport const f = (r: FastifyRequest) => r.url;`,
};

describe('layers/module-layers', () => {
  for (const [hole, text] of Object.entries(holes)) {
    it(`reports ${hole} outside queries`, async () => {
      expect(await layerProblems(text)).toHaveLength(1);
    });
  }

  it('covers apps/api/src/lib too', async () => {
    expect(await layerProblems(`${head}export const f = (trx: Db) => trx.execute('select 1' as never);`.replaceAll('../../', '../'), lib)).toHaveLength(1);
  });

  it('lets a service pass a handle on, name a row type, and leaves queries files alone', async () => {
    expect(await layerProblems(`${head}import type { experience } from '../../db/schema';\nexport const f = (ctx: TenantCtx, g: (tx: Db) => void) => g(ctx.tx);\nexport type R = typeof experience.$inferSelect;`)).toEqual([]);
    expect(await layerProblems(`${head}import { sql } from 'drizzle-orm';\nexport const f = (trx: Db) => trx.execute(sql\`select 1\`);`, queries)).toEqual([]);
  });
}, 600_000);
