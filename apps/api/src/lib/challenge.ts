import { createHmac } from 'node:crypto';
import { createChallenge, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { TWebChallenge } from '@tourdesk/contracts';
import type { Db } from '../db/client';
import { AppError } from './errors';
import { hit } from './throttle';

/**
 * The one proof-of-work of the public calls (ALTCHA, PBKDF2/SHA-256; no third party): the server
 * signs a challenge, the page solves it in the background (a few tenths of a second) and sends the
 * solution as `X-Altcha` (base64 of `{ challenge, solution }`). Used by the web store (always for a
 * pay-on-site order and, past a threshold, for an address's carts, lines and orders:
 * web-store/limits-routes.ts) and by sign-in (past the longest wait: auth/service.ts). Each use has
 * its own secret (`challengeSecret(key, use)`), so one's solution is no good for the other. A
 * solution is good once: its signature is counted in the shared rate_limit table until the challenge
 * expires.
 */
export interface ChallengeSettings {
  /** The HMAC secret (derived from the API's signing key, so every process agrees). */
  secret: string;
  /** PBKDF2 iterations per try. */
  cost: number;
  /** Hex zeros the derived key starts with: about 16^digits tries. */
  digits: number;
}

/** How long a challenge may wait to be used: the store's checkout page solves one when it opens. */
export const CHALLENGE_MINUTES = 30;

/** What a challenge is for: each has its own secret. */
export type ChallengeUse = 'web-store' | 'sign-in';

/** A use's challenge secret, from a key the API already shares between its processes. */
export const challengeSecret = (key: Uint8Array, use: ChallengeUse) => createHmac('sha256', key).update(`tourdesk ${use} challenge`).digest('base64url');

export async function newChallenge(settings: ChallengeSettings): Promise<TWebChallenge> {
  const made = await createChallenge({
    algorithm: 'PBKDF2/SHA-256',
    cost: settings.cost,
    keyPrefix: '0'.repeat(settings.digits),
    deriveKey,
    hmacSignatureSecret: settings.secret,
    expiresAt: new Date(Date.now() + CHALLENGE_MINUTES * 60_000),
  });
  return { parameters: { ...made.parameters }, signature: made.signature! };
}

/** The payload of an `X-Altcha` header, or null when it is not one. */
function payloadOf(header: string | undefined): { challenge: Challenge; solution: Solution } | null {
  if (!header || header.length > 4096) return null;
  try {
    const value = JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as { challenge?: Challenge; solution?: Solution };
    const c = value?.challenge;
    if (!c || typeof c !== 'object' || !c.parameters || typeof c.parameters !== 'object' || typeof c.signature !== 'string') return null;
    if (!value.solution || typeof value.solution !== 'object') return null;
    return { challenge: c, solution: value.solution };
  } catch {
    return null;
  }
}

/** Whether the header carries a solved challenge of ours, not expired and not used before (which it uses). */
export async function solved(db: Db, settings: ChallengeSettings, header: string | undefined): Promise<boolean> {
  const payload = payloadOf(header);
  if (!payload) return false;
  try {
    const result = await verifySolution({ challenge: payload.challenge, solution: payload.solution, deriveKey, hmacSignatureSecret: settings.secret });
    if (!result.verified) return false;
  } catch {
    return false;
  }
  const used = await hit(db, `altcha:${payload.challenge.signature}`, CHALLENGE_MINUTES * 60);
  return used.count === 1;
}

/** Why a call without a solved challenge is refused (`attr` names the header: `x-altcha`). */
export const challengeDetail = (header: string | undefined) =>
  header ? 'The check that this is a browser failed or has expired: please try again.' : 'Please try again: your browser is asked to prove it is not a script.';

/** Refuses a call without a solved challenge: 403 `challenge_required` (the store's page solves one and sends the call again). */
export async function requireSolved(db: Db, settings: ChallengeSettings, header: string | undefined) {
  if (await solved(db, settings, header)) return;
  throw new AppError('challenge_required', challengeDetail(header), 'x-altcha');
}
