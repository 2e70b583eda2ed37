import { and, count, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { isForeignKeyViolation, isUniqueViolation } from './db-errors';
import { AppError } from './errors';

/**
 * The queries of registerCrud() (lib/crud.ts), generic over the resource's table: the one queries
 * file every simple CRUD resource shares (a module's queries.ts supplies its table, filters and
 * order in a CrudSpec). With them, the reference checks a module's queries use (ownedIds,
 * assertOwned).
 */
export type TenantTable = PgTable & { id: PgColumn; account_id: PgColumn };
export type Row<T extends TenantTable> = T['$inferSelect'];
/** A filter from the query string: its value → a condition. */
export type CrudFilter = { where: (value: string) => SQL };
/** What the list's queries need of a CrudSpec. */
export interface CrudTable<T extends TenantTable> {
  table: T;
  noun: string;
  search?: PgColumn[];
  filters?: Record<string, CrudFilter>;
  orderBy: (SQL | PgColumn)[];
  unique?: { attr: string; detail: string };
  inUse?: string;
}

/** Which of `ids` are rows of this organisation in `table` (one query). */
export async function ownedIds(tx: Db, table: TenantTable, accountId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = (await tx
    .select({ id: table.id })
    .from(table as PgTable)
    .where(and(eq(table.account_id, accountId), inArray(table.id, ids)))) as { id: string }[];
  return new Set(rows.map((r) => r.id));
}

/** Refuses (400, naming the field) a reference to a row that is not this organisation's. */
export async function assertOwned(ctx: { tx: Db; accountId: string }, table: TenantTable, id: string | null | undefined, attr: string, noun: string) {
  if (!id) return;
  if (!(await ownedIds(ctx.tx, table, ctx.accountId, [id])).size) {
    throw new AppError('invalid', `No ${noun} with this id in your organisation.`, attr);
  }
}

/** The list's condition: the organisation's rows, the search term (ILIKE in spec.search) and the filters sent. */
export function listWhere<T extends TenantTable>(spec: CrudTable<T>, accountId: string, q: Record<string, string | undefined>) {
  const t = spec.table;
  const term = q.search ? `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return and(
    eq(t.account_id, accountId),
    term && spec.search?.length ? or(...spec.search.map((c) => ilike(c, term))) : undefined,
    ...Object.entries(spec.filters ?? {}).map(([k, f]) => (q[k] ? f.where(q[k]!) : undefined)),
  );
}

export async function countRows<T extends TenantTable>(tx: Db, spec: CrudTable<T>, where: SQL | undefined) {
  return (await tx.select({ n: count() }).from(spec.table as PgTable).where(where))[0]?.n ?? 0;
}

export async function pageRows<T extends TenantTable>(tx: Db, spec: CrudTable<T>, where: SQL | undefined, limit: number, offset: number) {
  return (await tx
    .select()
    .from(spec.table as PgTable)
    .where(where)
    .orderBy(...spec.orderBy)
    .limit(limit)
    .offset(offset)) as Row<T>[];
}

const byId = <T extends TenantTable>(spec: CrudTable<T>, accountId: string, id: string) => and(eq(spec.table.account_id, accountId), eq(spec.table.id, id));

/** The row of this organisation with this id, or undefined. */
export async function findRow<T extends TenantTable>(tx: Db, spec: CrudTable<T>, accountId: string, id: string) {
  const [row] = await tx.select().from(spec.table as PgTable).where(byId(spec, accountId, id));
  return row as Row<T> | undefined;
}

/** Unique and in-use violations as the errors the user reads. */
async function write<R, T extends TenantTable>(spec: CrudTable<T>, fn: () => Promise<R>): Promise<R> {
  try {
    return await fn();
  } catch (error) {
    if (isUniqueViolation(error) && spec.unique) throw new AppError('invalid', spec.unique.detail, spec.unique.attr);
    if (isForeignKeyViolation(error)) throw new AppError('conflict', spec.inUse ?? `This ${spec.noun} is in use.`);
    throw error;
  }
}

export async function insertRow<T extends TenantTable>(tx: Db, spec: CrudTable<T>, accountId: string, values: Partial<T['$inferInsert']>) {
  const [row] = await write(spec, () =>
    tx
      .insert(spec.table)
      .values({ ...values, account_id: accountId } as T['$inferInsert'])
      .returning(),
  );
  return row as Row<T>;
}

export async function updateRow<T extends TenantTable>(tx: Db, spec: CrudTable<T>, accountId: string, id: string, values: Partial<T['$inferInsert']>) {
  const t = spec.table;
  await write(spec, () =>
    tx
      .update(t)
      .set({ ...values, ...('updated_at' in t ? { updated_at: new Date() } : {}) } as Partial<T['$inferInsert']>)
      .where(byId(spec, accountId, id)),
  );
}

export async function deleteRow<T extends TenantTable>(tx: Db, spec: CrudTable<T>, accountId: string, id: string) {
  await write(spec, () => tx.delete(spec.table).where(byId(spec, accountId, id)));
}
