import type { TWebChallenge } from '@tourdesk/contracts';

/**
 * The store's proof-of-work (ALTCHA): the server asks for it on a pay-on-site order, and past a
 * threshold of one address's calls. The page solves it in the background with altcha-lib's browser
 * solver (Web Crypto's PBKDF2, a few tenths of a second), loaded only when a challenge is wanted so
 * the first load stays small; the customer sees nothing. Answers the X-Altcha header's value.
 */
export async function solveChallenge(challenge: TWebChallenge): Promise<string> {
  const [{ solveChallenge: solve }, { deriveKey }] = await Promise.all([import('altcha-lib'), import('altcha-lib/algorithms/web/pbkdf2')]);
  const solution = await solve({ challenge, deriveKey, timeout: 60_000 });
  if (!solution) throw new Error('challenge not solved');
  return btoa(JSON.stringify({ challenge, solution }));
}
