import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import { newSecret, sameHash, sha256, splitToken } from './crypto';
import * as q from './queries';

export type ActionPurpose = 'activation' | 'password_reset' | 'invitation' | 'email_reset' | 'email_confirm' | 'handoff';

export const ACTION_TTL_SECONDS: Record<ActionPurpose, number> = {
  activation: 7 * 86_400,
  password_reset: 3600,
  invitation: 7 * 86_400,
  email_reset: 3600,
  /** The link sent to a new address (payload: the address), which makes it the account's. */
  email_confirm: 86_400,
  handoff: 60,
};

/** A one-time token `{id}.{secret}`; only the secret's hash is stored. */
export async function issueActionToken(
  db: Db,
  user: { id: string; account_id: string },
  purpose: ActionPurpose,
  payload: Record<string, string> = {},
) {
  if (purpose !== 'handoff') await q.expireActionTokens(db, user.id, purpose);
  const secret = newSecret();
  const id = await q.insertActionToken(db, {
    account_id: user.account_id,
    user_id: user.id,
    purpose,
    token_hash: sha256(secret),
    payload,
    expires_at: new Date(Date.now() + ACTION_TTL_SECONDS[purpose] * 1000),
  });
  return `${id}.${secret}`;
}

export const invalidLink = () => new AppError('invalid', 'This link is invalid or has expired. Ask for a new one.', 'token');

/** Checks and uses up a token; the uid, when given, must be the token's user. */
export async function redeemActionToken(db: Db, token: string, purpose: ActionPurpose, uid?: string) {
  const parts = splitToken(token);
  if (!parts) throw invalidLink();
  const row = await q.findActionToken(db, parts.id);
  if (
    !row ||
    row.purpose !== purpose ||
    (uid !== undefined && row.user_id !== uid) ||
    !sameHash(row.token_hash, sha256(parts.secret)) ||
    row.used_at ||
    row.expires_at < new Date()
  ) {
    throw invalidLink();
  }
  if (!(await q.consumeActionToken(db, row.id))) throw invalidLink();
  return row;
}
