import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import { AddressRefused, guardedLookup, literalHost, refusal } from './address';

/**
 * One attempt to deliver a message: a POST of its JSON body, signed per Standard Webhooks
 * (webhook-id, webhook-timestamp, webhook-signature), to an address the guard allows (address.ts:
 * checked on the address the socket connects to). Redirects are never followed: a 3xx answer is a
 * failed attempt (the endpoint's address is the one its Owner gave). 2xx is success; anything else,
 * a timeout or a refused address is a failure, tried again later.
 */
export interface Attempt {
  ok: boolean;
  http_status: number | null;
  /** The start of the answer (500 characters), or why there was none. */
  response: string;
  duration_ms: number;
}

export const RESPONSE_EXCERPT = 500;
const TIMEOUT_MS = 15_000;

export async function sendSigned(url: string, secret: string, message: { id: string; body: string }, options: { allowPrivate: boolean; now?: Date }): Promise<Attempt> {
  const started = Date.now();
  const done = (ok: boolean, status: number | null, response: string): Attempt => ({ ok, http_status: status, response: response.slice(0, RESPONSE_EXCERPT), duration_ms: Date.now() - started });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return done(false, null, 'The endpoint’s address is not a valid URL.');
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return done(false, null, 'Only http and https addresses receive webhooks.');
  const literal = literalHost(target);
  const why = literal ? refusal(literal, options.allowPrivate) : null;
  if (why) return done(false, null, `Refused: ${why}.`);
  const timestamp = options.now ?? new Date();
  const signature = new Webhook(secret).sign(message.id, timestamp, message.body);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<Attempt>((resolve) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        lookup: guardedLookup(options.allowPrivate) as never,
        timeout: TIMEOUT_MS,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Tourdesk-Webhooks/1',
          'webhook-id': message.id,
          'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
          'webhook-signature': signature,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_EXCERPT * 4) chunks.push(chunk);
          size += chunk.length;
        });
        const finish = () => {
          const status = response.statusCode ?? 0;
          const text = Buffer.concat(chunks).toString('utf8');
          if (status >= 300 && status < 400) return resolve(done(false, status, `Redirects are not followed (to ${response.headers.location ?? 'nowhere'}). ${text}`.trim()));
          resolve(done(status >= 200 && status < 300, status, text));
        };
        response.on('end', finish);
        response.on('error', (err) => resolve(done(false, response.statusCode ?? null, err.message)));
      },
    );
    request.on('timeout', () => request.destroy(new Error(`No answer within ${TIMEOUT_MS / 1000} s.`)));
    request.on('error', (err) => resolve(done(false, null, err instanceof AddressRefused ? `Refused: ${err.message}.` : err.message)));
    request.end(message.body);
  });
}
