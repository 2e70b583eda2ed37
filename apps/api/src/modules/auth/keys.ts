import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { systemSetting } from '../../db/schema';

const KEY_NAME = 'jwt_signing_key';

/**
 * The access-token signing key: JWT_SECRET when set; otherwise one generated on first start and
 * kept in the database, so every instance and every restart agree.
 */
export async function loadSigningKey(db: Db, fromEnv: string | undefined): Promise<Uint8Array> {
  if (fromEnv) return new TextEncoder().encode(fromEnv);
  await db
    .insert(systemSetting)
    .values({ key: KEY_NAME, value: randomBytes(64).toString('base64') })
    .onConflictDoNothing();
  const [row] = await db.select().from(systemSetting).where(eq(systemSetting.key, KEY_NAME));
  return new Uint8Array(Buffer.from(row!.value, 'base64'));
}
