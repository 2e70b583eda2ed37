import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { AppError } from '../../lib/errors';

/**
 * Where a webhook may go (the SSRF guard): only public addresses. Every address a name resolves to
 * is classified; one that is not public refuses the request. The same check runs as the socket's
 * `lookup` (send.ts), so the address connected to is the one checked: a name that resolves to a
 * public address when checked and to a private one when connected (DNS rebinding) is refused.
 *
 * With WEBHOOKS_ALLOW_PRIVATE (one machine running everything) loopback, private (RFC 1918, ULA)
 * and CGNAT addresses are allowed; link-local (the cloud metadata service among them), unspecified,
 * multicast and reserved addresses never are.
 */
export type AddressKind = 'loopback' | 'private' | 'cgnat' | 'link_local' | 'metadata' | 'unspecified' | 'multicast' | 'reserved';

const ALLOWED_WITH_PRIVATE: ReadonlySet<AddressKind> = new Set(['loopback', 'private', 'cgnat']);

const v4 = (a: string) => a.split('.').reduce((n, part) => n * 256 + Number(part), 0);
const inV4 = (n: number, base: string, bits: number) => bits === 0 || Math.floor(n / 2 ** (32 - bits)) === Math.floor(v4(base) / 2 ** (32 - bits));

const V4_RANGES: [string, number, AddressKind][] = [
  ['169.254.169.254', 32, 'metadata'],
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link_local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

function kindOfV4(address: string): AddressKind | null {
  const n = v4(address);
  for (const [base, bits, kind] of V4_RANGES) if (inV4(n, base, bits)) return kind;
  return null;
}

/** The eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail included). */
function groupsOf(address: string): number[] {
  let a = address.toLowerCase().split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (dotted) {
    const n = v4(dotted[1]!);
    a = `${a.slice(0, -dotted[1]!.length)}${Math.floor(n / 65536).toString(16)}:${(n % 65536).toString(16)}`;
  }
  const [head, tail] = a.includes('::') ? a.split('::') : [a, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array(8 - h.length - t.length).fill('0');
  return [...h, ...fill, ...t].map((g) => parseInt(g, 16));
}

function kindOfV6(address: string): AddressKind | null {
  const g = groupsOf(address);
  const zeroUpTo = (i: number) => g.slice(0, i).every((x) => x === 0);
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d): the IPv4 address inside decides.
  const embedded = () => `${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`;
  if (zeroUpTo(5) && g[5] === 0xffff) return kindOfV4(embedded());
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return kindOfV4(embedded());
  if (zeroUpTo(7) && g[7] === 0) return 'unspecified';
  if (zeroUpTo(7) && g[7] === 1) return 'loopback';
  if (zeroUpTo(6)) return kindOfV4(embedded()) ?? 'reserved';
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return 'private'; // fc00::/7, unique local
  if ((first & 0xffc0) === 0xfe80) return 'link_local'; // fe80::/10
  if ((first & 0xffc0) === 0xfec0) return 'private'; // fec0::/10, the old site-local
  if ((first & 0xff00) === 0xff00) return 'multicast'; // ff00::/8
  if (first === 0x2001 && g[1] === 0x0db8) return 'reserved'; // documentation
  if (first === 0x0100 && zeroUpTo(4)) return 'reserved'; // 100::/64, discard
  return null;
}

/** What kind of non-public address this is, or null for a public one. */
export function addressKind(address: string): AddressKind | null {
  const family = isIP(address);
  if (family === 4) return kindOfV4(address);
  if (family === 6) return kindOfV6(address);
  return 'reserved';
}

/** Why the address is refused, or null when a request may go to it. */
export function refusal(address: string, allowPrivate: boolean): string | null {
  const kind = addressKind(address);
  if (kind === null || (allowPrivate && ALLOWED_WITH_PRIVATE.has(kind))) return null;
  return `${address} is a ${kind.replace('_', '-')} address: webhooks go only to public addresses`;
}

export class AddressRefused extends Error {
  readonly code = 'address_refused';
}

/** The host of a URL as an address when it is one (brackets of an IPv6 literal removed). */
export const literalHost = (url: URL) => {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : null;
};

/**
 * At creation: an http(s) URL, and when its host is an address (or localhost), an address a webhook
 * may go to. A name is resolved at delivery time only (it may change; it is checked at each connect).
 */
export function checkEndpointUrl(value: string, allowPrivate: boolean) {
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AppError('invalid', 'The address must start with http:// or https://.', 'url');
  if (url.username || url.password) throw new AppError('invalid', 'The address must not carry a user name or password: the signature proves the sender.', 'url');
  const literal = literalHost(url) ?? (/^localhost\.?$/i.test(url.hostname) || /\.localhost\.?$/i.test(url.hostname) ? '127.0.0.1' : null);
  const why = literal ? refusal(literal, allowPrivate) : null;
  if (why) throw new AppError('invalid', `This address cannot receive webhooks: ${why}.`, 'url');
}

/**
 * A `lookup` for a socket (http.request's option): resolves the name, refuses it when any of its
 * addresses is not public, and answers the checked addresses, so the connection goes to one of them.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
    dnsLookup(hostname, { all: true, family: typeof options.family === 'number' ? options.family : 0 }, (err, addresses) => {
      if (err) return callback(err, '');
      const refused = addresses.map((a) => refusal(a.address, allowPrivate)).find((why) => why !== null);
      if (refused || addresses.length === 0) return callback(new AddressRefused(refused ?? `${hostname} has no address`), '');
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
