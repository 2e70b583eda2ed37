/**
 * What a backup reads of the database besides the dump itself, as the owner (row-level security
 * does not hide other organisations' rows from the tables' owner): the media it references, the
 * last migration applied and a few counts for the manifest. Plain SQL through any session (a PGlite,
 * a pg client inside the dump's snapshot), so both engines answer the same.
 */
export interface BackupSession {
  query<R>(text: string, params?: unknown[]): Promise<{ rows: R[] }>;
}

/**
 * Every key of media the database names: every column called storage_key or thumbnail_key, or
 * ending in _storage_key, of every table (image today; a table added later is found by its column).
 */
export async function referencedMediaKeys(session: BackupSession): Promise<string[]> {
  const columns = await session.query<{ table_schema: string; table_name: string; column_name: string }>(
    `select table_schema, table_name, column_name from information_schema.columns
      where table_schema = 'public' and data_type = 'text'
        and (column_name in ('storage_key', 'thumbnail_key') or column_name like '%\\_storage\\_key' or column_name like '%\\_thumbnail\\_key')
      order by table_name, column_name`,
  );
  const keys = new Set<string>();
  for (const c of columns.rows) {
    const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
    const found = await session.query<{ key: string }>(
      `select distinct ${ident(c.column_name)} as key from ${ident(c.table_schema)}.${ident(c.table_name)} where ${ident(c.column_name)} is not null`,
    );
    for (const row of found.rows) keys.add(row.key);
  }
  return [...keys].sort();
}

/** The `when` of the last migration the database recorded (drizzle's journal), or null for none. */
export async function lastMigrationAt(session: BackupSession): Promise<number | null> {
  const exists = await session.query<{ found: boolean }>(`select to_regclass('drizzle.__drizzle_migrations') is not null as found`);
  if (!exists.rows[0]?.found) return null;
  const last = await session.query<{ created_at: string | number | null }>('select max(created_at) as created_at from drizzle.__drizzle_migrations');
  const at = last.rows[0]?.created_at;
  return at === null || at === undefined ? null : Number(at);
}

/** The tables whose row counts the manifest shows (a restore's printout repeats them). */
const COUNTED = ['base_account', 'users', 'customer', 'orders', 'booking', 'image'];

export async function rowCounts(session: BackupSession): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of COUNTED) {
    const exists = await session.query<{ found: boolean }>(`select to_regclass($1) is not null as found`, [`public.${table}`]);
    if (!exists.rows[0]?.found) continue;
    const res = await session.query<{ n: string | number }>(`select count(*) as n from public."${table}"`);
    counts[table] = Number(res.rows[0]?.n ?? 0);
  }
  return counts;
}
