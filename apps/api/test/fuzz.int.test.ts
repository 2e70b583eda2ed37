import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation, signIn } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Bad input never answers 5xx. For every operation of /api/schema/, requests are derived from the
 * operation's own schema: a plausible body, query and path, then one value made bad — a NUL
 * character, an unpaired surrogate, a date in year 0 or 10000, a number out of range, a wrong
 * type, a missing or unknown field, an id that does not exist or is not an id, a very long text,
 * arrays and objects nested 10,000 levels (drawn like the others, and sent to every operation as
 * the whole body and in an extra field).
 * fast-check draws them from a fixed seed (FUZZ_SEED to try another), so a failure repeats. Every
 * answer must be below 500, and a 4xx must be in the error envelope.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 64);
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  default?: unknown;
  additionalProperties?: Schema | boolean;
};
interface Operation {
  method: string;
  path: string;
  params: { name: string; in: string; required?: boolean; schema: Schema }[];
  body?: Schema;
}

let t: TestApp;
let sink: MailSink;
let owner: Browser;
let doc: { paths: Record<string, Record<string, { parameters?: Operation['params']; requestBody?: { content?: Record<string, { schema: Schema }> } }>>; components?: { schemas?: Record<string, Schema> } };
/** Ids that exist in the organisation, so a request can reach past "not found"; by field name where it tells. */
const known: string[] = [];
const knownBy: Record<string, string> = {};

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url, LOGIN_LIMIT_PER_IP: '100000', LOGIN_LIMIT_PER_EMAIL: '100000' } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'fuzz' });
  const exp = await sellableExperience(owner, 'Fuzzed tour');
  await owner.patch(`/api/experiences/${exp.id}/`, { status: 'Active' });
  const [slot] = (await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10)}`)).json();
  const order = (await owner.post('/api/orders/', { customer: { email: 'fuzzed@example.com', first_name: 'Fuzz' }, lines: [{ slot: slot.id, quantities: { [exp.category]: 1 } }] })).json();
  Object.assign(knownBy, { experience: exp.id, pricing_category: exp.category, category: exp.category, rate: exp.rate, rule: exp.rule, slot: slot.id, order: order.id, customer: order.customer.id, booking: order.bookings[0].id });
  known.push(...Object.values(knownBy));
  doc = (await t.app.inject({ url: '/api/schema/' })).json();
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

function resolve(s: Schema | undefined): Schema {
  if (!s) return {};
  if (s.$ref) return resolve(doc.components?.schemas?.[s.$ref.split('/').pop()!]);
  if (s.allOf?.length) return Object.assign({}, ...s.allOf.map(resolve));
  return s;
}

/** A plausible value of a schema: what a well-meaning client would send. */
function plausible(raw: Schema | undefined, depth = 0, key = ''): unknown {
  const s = resolve(raw);
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  const variant = s.anyOf ?? s.oneOf;
  if (variant?.length) return plausible(variant.find((v) => resolve(v).type !== 'null') ?? variant[0], depth, key);
  const type = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
  switch (type) {
    case 'object': {
      if (depth > 4) return {};
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) out[k] = plausible(v, depth + 1, k);
      return out;
    }
    case 'array':
      return depth > 4 ? [] : [plausible(s.items, depth + 1, key)];
    case 'integer':
    case 'number':
      return Math.max(s.minimum ?? 1, Math.min(s.maximum ?? 1, 1));
    case 'boolean':
      return true;
    case 'string':
      if (s.format === 'uuid') return knownBy[key.replace(/_id$|s$/, '')] ?? known[0];
      if (s.format === 'date') return '2030-01-15';
      if (s.format === 'date-time') return '2030-01-15T10:00:00.000Z';
      if (s.format === 'email') return 'someone@example.com';
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
    default:
      return 'x';
  }
}

/**
 * Deep nesting: JSON.stringify recurses, so a body carries this placeholder where the value goes
 * and its JSON text is swapped for arrays and objects 10,000 levels deep (withDeep).
 */
const DEEP = '\u2063nested 10,000 levels\u2063';
const DEEP_JSON = `${'[{"a":'.repeat(5_000)}1${'}]'.repeat(5_000)}`;
const withDeep = (json: string) => json.replaceAll(JSON.stringify(DEEP), DEEP_JSON);

const BAD_VALUES: unknown[] = [
  'nul\u0000byte',
  'lone \ud800 surrogate',
  'lone \udc00 low',
  '0000-01-01',
  '10000-01-01',
  '2030-02-30',
  '0000-01-01T00:00:00Z',
  '-1',
  '',
  ' ',
  'x'.repeat(20_000),
  '00000000-0000-0000-0000-000000000000',
  crypto.randomUUID(),
  'not-a-uuid',
  "'; drop table slot; --",
  '%00',
  '../../etc/passwd',
  2 ** 31,
  2 ** 53 + 1,
  -(2 ** 31) - 1,
  -1,
  0,
  0.5,
  1e308,
  Number.NaN,
  true,
  null,
  [],
  {},
  { nested: { deeper: 'nul\u0000' } },
  ['a', 'nul\u0000'],
  DEEP,
];
const BAD_PATH = ['not-a-uuid', '00000000-0000-0000-0000-000000000000', 'x'.repeat(2_000), '%00', '%E0%A4%A', '%F0%9F%98', '..%2F..%2Fetc', crypto.randomUUID()];

/** Every (dotted) location of a value in a plausible body, to be made bad one at a time. */
function paths(value: unknown, prefix: string[] = []): string[][] {
  if (Array.isArray(value)) return [prefix, ...value.flatMap((v, i) => paths(v, [...prefix, String(i)]))];
  if (value && typeof value === 'object') return [prefix, ...Object.entries(value).flatMap(([k, v]) => paths(v, [...prefix, k]))];
  return [prefix];
}
function setAt(root: unknown, at: string[], bad: unknown, drop: boolean): unknown {
  if (at.length === 0) return bad;
  const copy = structuredClone(root) as Record<string, unknown>;
  let cursor = copy as Record<string, unknown>;
  for (const key of at.slice(0, -1)) cursor = cursor[key] as Record<string, unknown>;
  if (drop) delete cursor[at.at(-1)!];
  else cursor[at.at(-1)!] = bad;
  return copy;
}

function operations(): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      ops.push({ method: method.toUpperCase(), path, params: op.parameters ?? [], body: op.requestBody?.content?.['application/json']?.schema });
    }
  }
  return ops;
}

/** Session-ending calls answer 2xx and sign the fuzzer out: it signs in again. */
async function stillSignedIn() {
  if ((await owner.get('/api/users/me/')).statusCode === 200) return;
  await signIn(owner, 'owner@fuzz.test', 'fuzz');
}

describe('bad input never answers 5xx', () => {
  it('derives bad bodies, queries and path parameters for every operation from /api/schema/', async () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(50);
    const failures: string[] = [];
    let sent = 0;
    /** Every answer below 500, and a 4xx in the envelope. */
    const check = (res: Awaited<ReturnType<Browser['request']>>, what: string) => {
      const envelope = res.headers['content-type']?.toString().includes('json') ? (res.json() as { errors?: unknown[] }) : null;
      if (res.statusCode >= 500 || (res.statusCode >= 400 && !envelope?.errors)) failures.push(`${what} → ${res.statusCode} ${res.body.slice(0, 160)}`);
    };
    for (const op of ops) {
      const body = op.body ? plausible(op.body) : undefined;
      const query = Object.fromEntries(op.params.filter((p) => p.in === 'query').map((p) => [p.name, plausible(p.schema)]));
      const pathParams = op.params.filter((p) => p.in === 'path').map((p) => p.name);
      const where = [
        ...(body !== undefined ? paths(body).map((at) => ({ part: 'body' as const, at })) : []),
        ...Object.keys(query).map((name) => ({ part: 'query' as const, at: [name] })),
        ...pathParams.map((name) => ({ part: 'path' as const, at: [name] })),
      ];
      if (where.length === 0) where.push({ part: 'query', at: ['unexpected'] });
      const cases = fc.sample(
        fc.record({ target: fc.constantFrom(...where), bad: fc.constantFrom(...BAD_VALUES), badPath: fc.constantFrom(...BAD_PATH), drop: fc.boolean(), known: fc.nat(known.length - 1) }),
        { numRuns: RUNS, seed: SEED + sent },
      );
      for (const c of cases) {
        let url = op.path;
        for (const name of pathParams) {
          const value = c.target.part === 'path' && c.target.at[0] === name ? c.badPath : known[c.known]!;
          url = url.replace(`{${name}}`, value.startsWith('%') || value.includes('%2F') ? value : encodeURIComponent(value));
        }
        const q = c.target.part === 'query' ? (setAt(query, c.target.at, c.bad, c.drop) as Record<string, unknown>) : query;
        const search = new URLSearchParams();
        for (const [k, v] of Object.entries(q ?? {})) if (v !== undefined) search.append(k, v === DEEP ? DEEP_JSON : typeof v === 'string' ? v : JSON.stringify(v));
        const payload = c.target.part === 'body' ? setAt(body, c.target.at, c.bad, c.drop) : body;
        const json = payload === undefined ? undefined : withDeep(JSON.stringify(payload));
        const res = await owner.request(op.method, `${url}${search.size ? `?${search}` : ''}`, json, json === undefined ? {} : { 'content-type': 'application/json' });
        sent++;
        const bad = c.target.part === 'path' ? c.badPath : c.drop ? '(left out)' : c.bad;
        check(res, `${op.method} ${op.path} ${c.target.part}:${c.target.at.join('.')}=${JSON.stringify(bad)?.slice(0, 40)}`);
        if (res.statusCode < 300 && /logout|password|sessions|jwt/.test(op.path)) await stillSignedIn();
      }
      // Deep nesting reaches every operation, whatever the draw: as the whole body, and in an extra field.
      let url = op.path;
      for (const name of pathParams) url = url.replace(`{${name}}`, encodeURIComponent(known[0]!));
      const extra = body && typeof body === 'object' && !Array.isArray(body) ? { ...body, extra: DEEP } : { extra: DEEP };
      for (const [where, json] of [['whole body', DEEP_JSON], ['extra field', withDeep(JSON.stringify(extra))]]) {
        const res = await owner.request(op.method, url, json, { 'content-type': 'application/json' });
        sent++;
        check(res, `${op.method} ${op.path} body nested 10,000 levels (${where})`);
      }
      await stillSignedIn();
    }
    expect(sent).toBeGreaterThan(ops.length * (RUNS + 2) - 1);
    expect(failures, `${failures.length} of ${sent} requests to ${ops.length} operations:\n${failures.join('\n')}`).toEqual([]);
  }, 600_000);
});

describe('the framework’s own refusals answer in the envelope', () => {
  const envelopeOf = (res: { statusCode: number; json(): unknown }) => ({ status: res.statusCode, body: res.json() as { type: string; errors: { code: string; attr: string | null }[] } });

  it('a long path parameter (414), a bad URL, a body too large (413), another media type (415), malformed JSON', async () => {
    expect(envelopeOf(await owner.get(`/api/experiences/${'x'.repeat(500)}/`))).toMatchObject({ status: 414, body: { type: 'client_error', errors: [{ code: 'uri_too_long' }] } });
    expect(envelopeOf(await owner.get('/api/experiences/%E0%A4%A/'))).toMatchObject({ status: 400, body: { errors: [{ code: 'invalid' }] } });
    const big = await owner.request('POST', '/api/experiences/', JSON.stringify({ title: 'x'.repeat(2 * 1024 * 1024) }), { 'content-type': 'application/json' });
    expect(envelopeOf(big)).toMatchObject({ status: 413, body: { errors: [{ code: 'payload_too_large' }] } });
    const xml = await owner.request('POST', '/api/experiences/', '<title/>', { 'content-type': 'application/xml' });
    expect(envelopeOf(xml)).toMatchObject({ status: 415, body: { errors: [{ code: 'unsupported_media_type' }] } });
    const broken = await owner.request('POST', '/api/experiences/', '{"title": ', { 'content-type': 'application/json' });
    expect(envelopeOf(broken)).toMatchObject({ status: 400, body: { errors: [{ code: 'parse_error' }] } });
  });

  it('refuses a NUL or an unpaired surrogate anywhere, naming where, and a date in year 0', async () => {
    const nul = await owner.patch('/api/users/me/', { first_name: 'Ann\u0000', last_name: 'B' });
    expect(envelopeOf(nul)).toMatchObject({ status: 400, body: { errors: [{ code: 'invalid', attr: 'first_name' }] } });
    const surrogate = await owner.request('POST', '/api/closed-dates/', '{"experience":"' + knownBy.experience + '","date":"2030-01-01","reason":"a \\ud800 b"}', { 'content-type': 'application/json' });
    expect(envelopeOf(surrogate)).toMatchObject({ status: 400, body: { errors: [{ attr: 'reason' }] } });
    expect(envelopeOf(await owner.get('/api/capacity/by-date/?date=0000-01-01'))).toMatchObject({ status: 400, body: { errors: [{ attr: 'date' }] } });
    expect(envelopeOf(await owner.get('/api/orders/?search=%00'))).toMatchObject({ status: 400, body: { errors: [{ attr: 'search' }] } });
  });
});
