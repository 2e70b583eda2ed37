import type { TWebChallenge } from '@tourdesk/contracts';

/**
 * The sign-in's proof of work (ALTCHA), asked for once an e-mail's sign-in is at its longest wait:
 * solved with altcha-lib's browser solver (Web Crypto's PBKDF2, a few tenths of a second), loaded
 * only now, so the first load does not carry it. Answers the X-Altcha header's value (as the web
 * store's page does: apps/store/src/lib/challenge.ts).
 */
export async function solveChallenge(challenge: TWebChallenge): Promise<string> {
  const [{ solveChallenge: solve }, { deriveKey }] = await Promise.all([import('altcha-lib'), import('altcha-lib/algorithms/web/pbkdf2')]);
  const solution = await solve({ challenge, deriveKey, timeout: 60_000 });
  if (!solution) throw new Error('challenge not solved');
  return btoa(JSON.stringify({ challenge, solution }));
}

/** Whether a refused call says a solved challenge would let it through (429 or 403 `challenge_required`). */
export function challengeRequired(error: unknown): boolean {
  const data = (error as { data?: { errors?: { code?: string }[] } } | undefined)?.data;
  return data?.errors?.[0]?.code === 'challenge_required';
}
