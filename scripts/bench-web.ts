/**
 * npm run bench:web — Lighthouse (12, its Node API) on three pages of the demo, in Debian's
 * Chromium, with Lighthouse's default profile: a mobile phone on a slow 4G network with a 4× slower
 * CPU, simulated (throttling is computed from an unthrottled load, not applied):
 *
 * 1. the demo's web store, /s/kayak/;
 * 2. the page of its first offer, /s/kayak/offers/{id} (the first of the store's public list);
 * 3. the back office's dashboard, /dashboard, signed in as the demo's owner.
 *
 * Per page it prints the Performance, Accessibility, Best Practices and SEO scores beside their
 * targets, and LCP, TBT, CLS and FCP; then, for Accessibility, Best Practices and SEO under 100,
 * the audits that failed. It asserts nothing: a score under its target does not fail the command;
 * not being able to measure does (the server does not start, Lighthouse fails three times in a
 * row on a page, a page ends elsewhere than asked, e.g. the dashboard on the sign-in page).
 *
 * The product is started as `npm start` runs it, from the last build (`npm run build` first):
 * apps/api/dist/server.js with NODE_ENV=production on a fresh PGlite in a temporary DATA_DIR,
 * seeded with the demo (SEED_DEMO=true), on a free port of 127.0.0.1; it is stopped at the end.
 * Each page is loaded once over HTTP before it is measured, so the first audit does not pay for a
 * cold server. Each audit runs in a Chromium of its own (a fresh profile), started with
 * chrome-launcher and driven through puppeteer-core, both Lighthouse's own dependencies.
 *
 * BENCH_WEB_RUNS=N measures each page N times and prints the medians (default 1).
 * BENCH_WEB_OUT=dir is where the full JSON reports go (default test-results/lighthouse/, which
 * git ignores, and which Playwright empties when the browser tests start); CHROMIUM_PATH another
 * Chromium than /usr/bin/chromium.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import puppeteer, { type CookieParam } from 'puppeteer-core';

const ROOT = path.resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const OUT = path.resolve(ROOT, process.env.BENCH_WEB_OUT ?? 'test-results/lighthouse');
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 1);
/** What `npm start` checks before it serves (scripts/start.mjs). */
const BUILD_OUTPUTS = ['apps/api/dist/server.js', 'apps/web/dist/index.html', 'apps/store/dist/.vite/manifest.json'];
/** The Node flags `npm start` gives the server. */
const SERVER_FLAGS = ['--max-semi-space-size=32'];
const DEMO = { subdomain: 'demo', store: 'kayak', email: 'owner@demo.tourdesk.test', password: 'tourdesk-demo' };
/**
 * This machine's network is closed: Chromium's own background traffic (component updates, sync,
 * QUIC probes) would only add refused connections to the measurements.
 */
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
const CATEGORIES = [
  { id: 'performance', label: 'Performance' },
  { id: 'accessibility', label: 'Accessibility' },
  { id: 'best-practices', label: 'Best Practices' },
  { id: 'seo', label: 'SEO' },
] as const;
type CategoryId = (typeof CATEGORIES)[number]['id'];
/** Categories whose failing audits are listed. */
const LISTED: CategoryId[] = ['accessibility', 'best-practices', 'seo'];
const METRICS = [
  { id: 'largest-contentful-paint', label: 'LCP', format: (v: number) => `${(v / 1000).toFixed(2)} s` },
  { id: 'total-blocking-time', label: 'TBT', format: (v: number) => `${Math.round(v)} ms` },
  { id: 'cumulative-layout-shift', label: 'CLS', format: (v: number) => v.toFixed(3) },
  { id: 'first-contentful-paint', label: 'FCP', format: (v: number) => `${(v / 1000).toFixed(2)} s` },
] as const;
/** The lowest acceptable score per category (none: no target on that page). */
type Targets = Partial<Record<CategoryId, number>>;
const STORE_TARGETS: Targets = { performance: 95, accessibility: 100, 'best-practices': 95, seo: 100 };
const BACK_OFFICE_TARGETS: Targets = { accessibility: 100, 'best-practices': 95 };
/** One audit must end well within this (Lighthouse gives a page 45 s to load). */
const AUDIT_TIMEOUT_MS = 180_000;

interface Page {
  key: string;
  label: string;
  url: string;
  targets: Targets;
  /** Signed in as the demo's owner. */
  signedIn: boolean;
}

interface Run {
  scores: Record<CategoryId, number | null>;
  metrics: Record<string, number | null>;
  /** Failing audits of the LISTED categories: "category\u0000id" → title and a few of its items. */
  failing: Map<string, { category: CategoryId; id: string; title: string; items: string[] }>;
  /** Audits Lighthouse could not run, any category: id → its error and whether it counts in a score. */
  errored: Map<string, { message: string; weighted: boolean }>;
  warnings: string[];
  benchmarkIndex: number;
  chrome: string;
}

class MeasureError extends Error {}
/** Lighthouse itself failed (a trace without its navigation start, a protocol timeout…): worth another try. */
class LighthouseFailed extends MeasureError {}
/** Tries per audit when Lighthouse itself fails; a page that ends elsewhere is not tried again. */
const ATTEMPTS = 3;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function freePort() {
  return new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * An HTTP request to the server on 127.0.0.1 with the Host header of `host` (Node does not resolve
 * *.localhost as Chromium does; the Host decides the organisation).
 */
function call(port: number, host: string, method: 'GET' | 'POST', url: string, body?: unknown) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise<{ status: number; text: string; cookies: string[] }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: url,
        method,
        headers: { host, ...(payload ? { origin: `http://${host}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
        timeout: 30_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, cookies: res.headers['set-cookie'] ?? [] }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${url}: no answer in 30 s`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** The server of the last build, on a fresh database seeded with the demo. */
async function startServer() {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tourdesk-bench-web-'));
  // A PostgreSQL server of the caller's environment is not this benchmark's: it runs on PGlite.
  const { DATABASE_URL: _url, MIGRATION_DATABASE_URL: _owner, ...env } = process.env;
  const child = spawn(process.execPath, [...SERVER_FLAGS, 'apps/api/dist/server.js'], {
    cwd: ROOT,
    env: {
      ...env,
      NODE_ENV: 'production',
      SEED_DEMO: 'true',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      // Each dashboard audit signs in afresh, all from 127.0.0.1 (the default allows 30 a quarter hour).
      LOGIN_LIMIT_PER_IP: '1000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + String(chunk)).slice(-4000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const server = {
    port,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        // The server waits up to SHUTDOWN_TIMEOUT_MS (10 s) for what is in flight.
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  const started = performance.now();
  // The first start migrates and seeds the demo: a few seconds.
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await server.stop();
      throw new MeasureError(`the server exited (${child.exitCode ?? child.signalCode}) before answering:\n${output.trim()}`);
    }
    const status = await call(port, `localhost:${port}`, 'GET', '/api/health/').then((r) => r.status, () => 0);
    if (status === 200) break;
    if (performance.now() - started > 120_000) {
      await server.stop();
      throw new MeasureError(`the server did not answer GET /api/health/ within 120 s:\n${output.trim()}`);
    }
    await sleep(100);
  }
  return { ...server, startMs: performance.now() - started };
}
type Server = Awaited<ReturnType<typeof startServer>>;

/**
 * Signs in as the demo's owner through the API on the demo's own host (where the answer sets the
 * session cookies, not a hand-off to another host) and returns those cookies for Chromium. The
 * access token lives ACCESS_TOKEN_TTL_SECONDS (15 min by default): each dashboard audit signs in
 * just before it starts.
 */
async function signIn(server: Server, host: string): Promise<CookieParam[]> {
  const res = await call(server.port, host, 'POST', '/api/jwt/create/', { email: DEMO.email, password: DEMO.password });
  if (res.status !== 200) throw new MeasureError(`sign-in as ${DEMO.email} on ${host}: ${res.status} ${res.text.slice(0, 300)}`);
  const answer = JSON.parse(res.text) as { redirect_url?: string };
  if (answer.redirect_url !== '/dashboard') throw new MeasureError(`sign-in on ${host} answered a hand-off (${answer.redirect_url}) instead of a session on this host`);
  const cookies = res.cookies.map((header): CookieParam => {
    const [pair, ...attributes] = header.split(';').map((s) => s.trim());
    const eq = pair!.indexOf('=');
    const attr = (name: string) => attributes.find((a) => a.toLowerCase().split('=')[0] === name.toLowerCase());
    const cookiePath = attr('path')?.split('=')[1] ?? '/';
    const maxAge = Number(attr('max-age')?.split('=')[1]);
    const sameSite = attr('samesite')?.split('=')[1]?.toLowerCase();
    return {
      name: pair!.slice(0, eq),
      value: pair!.slice(eq + 1),
      // Host-only, as the server sets them (a url and no domain).
      url: `http://${host}${cookiePath}`,
      path: cookiePath,
      httpOnly: Boolean(attr('httponly')),
      secure: Boolean(attr('secure')),
      ...(sameSite === 'lax' ? { sameSite: 'Lax' as const } : sameSite === 'strict' ? { sameSite: 'Strict' as const } : {}),
      ...(Number.isFinite(maxAge) ? { expires: Math.floor(Date.now() / 1000) + maxAge } : {}),
    };
  });
  for (const name of ['access_token', 'refresh_token']) {
    if (!cookies.some((c) => c.name === name)) throw new MeasureError(`sign-in on ${host} set no ${name} cookie (set: ${cookies.map((c) => c.name).join(', ') || 'none'})`);
  }
  return cookies;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new MeasureError(`${what}: no result within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A few words on what an audit found (the first items of its details), to find it in the page. */
function itemsOf(audit: Result['audits'][string]) {
  const details = audit.details as { items?: Record<string, unknown>[] } | undefined;
  const items = Array.isArray(details?.items) ? details.items : [];
  const describe = (item: Record<string, unknown>) => {
    const node = item.node as { selector?: string; snippet?: string } | undefined;
    const source = item.sourceLocation as { url?: string } | undefined;
    const sub = (item.subItems as { items?: { url?: unknown }[] } | undefined)?.items ?? [];
    const words = [item.description, item.issueType, node?.snippet ?? node?.selector, item.url ?? source?.url, ...sub.slice(0, 2).map((s) => s.url)].filter((w): w is string => typeof w === 'string' && w !== '');
    const text = words.join(' ').replace(/\s+/g, ' ');
    return text.length > 140 ? `${text.slice(0, 139)}…` : text;
  };
  const shown = items.slice(0, 3).map(describe).filter(Boolean);
  if (items.length > 3) shown.push(`… and ${items.length - 3} more`);
  return shown;
}

/** Lighthouse on one page, in a Chromium of its own; writes the full report to `reportPath`. */
async function audit(page: Page, server: Server, host: string, reportPath: string): Promise<Run> {
  const cookies = page.signedIn ? await signIn(server, host) : [];
  // chrome-launcher starts Chromium detached (Ctrl-C does not reach it): a stop kills it here.
  launching = chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: 'silent', handleSIGINT: false });
  const chrome = await launching;
  try {
    // Lighthouse drives the tab it is given; the session cookies go in the browser's jar first, as
    // a signed-in browser has them (Lighthouse's storage reset keeps cookies).
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
    try {
      const tab = await browser.newPage();
      if (cookies.length) {
        await tab.setCookie(...cookies);
        const jar = await tab.cookies(`http://${host}/api/`);
        const missing = cookies.filter((c) => !jar.some((j) => j.name === c.name));
        if (missing.length) throw new MeasureError(`Chromium refused the session cookies ${missing.map((c) => c.name).join(', ')} for ${host}`);
      }
      const flags: Flags = {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: CATEGORIES.map((c) => c.id),
      };
      const result = await withTimeout(lighthouse(page.url, flags, undefined, tab), AUDIT_TIMEOUT_MS, `Lighthouse on ${page.url}`).catch((error: unknown) => {
        throw new LighthouseFailed(`Lighthouse on ${page.url}: ${error instanceof Error ? error.message : String(error)}`);
      });
      if (!result) throw new LighthouseFailed(`Lighthouse returned no result for ${page.url}`);
      writeFileSync(reportPath, typeof result.report === 'string' ? result.report : JSON.stringify(result.lhr));
      const lhr = result.lhr;
      if (lhr.runtimeError) throw new LighthouseFailed(`Lighthouse on ${page.url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message} (report: ${path.relative(ROOT, reportPath)})`);
      // The page measured must be the page asked for: a dashboard without a session ends on /auth/login.
      const wanted = new URL(page.url);
      const ended = new URL(lhr.finalDisplayedUrl);
      const endedIn = new URL(lhr.mainDocumentUrl ?? lhr.finalDisplayedUrl);
      if (ended.pathname.startsWith('/auth/login') || endedIn.pathname.startsWith('/auth/login')) {
        throw new MeasureError(`${page.url} was redirected to the sign-in page (${lhr.finalDisplayedUrl}): the session was not accepted; nothing was measured of ${page.label}`);
      }
      if (ended.host !== wanted.host || ended.pathname !== wanted.pathname || endedIn.pathname !== wanted.pathname) {
        throw new MeasureError(`${page.url} ended on ${lhr.finalDisplayedUrl} (document ${lhr.mainDocumentUrl}): not the page asked for`);
      }
      if (page.signedIn) {
        // And it shows the dashboard itself (not a spinner or an error in its place).
        // (A string: these scripts are typed without the DOM's globals.)
        const shown = (await tab.evaluate(`({ path: location.pathname, headings: [...document.querySelectorAll('h1, h2, [role=heading]')].map((h) => (h.textContent || '').trim()) })`)) as { path: string; headings: string[] };
        if (shown.path !== wanted.pathname || !shown.headings.includes('Dashboard')) {
          throw new MeasureError(`after the audit the tab shows ${shown.path} with headings [${shown.headings.join(', ')}], not the dashboard`);
        }
      }
      const scores = {} as Run['scores'];
      for (const c of CATEGORIES) {
        const score = lhr.categories[c.id]?.score;
        scores[c.id] = typeof score === 'number' ? Math.round(score * 100) : null;
      }
      const metrics: Run['metrics'] = {};
      for (const m of METRICS) metrics[m.id] = lhr.audits[m.id]?.numericValue ?? null;
      const failing: Run['failing'] = new Map();
      for (const category of LISTED) {
        for (const ref of lhr.categories[category]?.auditRefs ?? []) {
          const a = lhr.audits[ref.id];
          if (!a || ref.weight === 0) continue;
          const failed = a.scoreDisplayMode === 'error' || (typeof a.score === 'number' && a.score < 1 && ['binary', 'numeric', 'metricSavings'].includes(a.scoreDisplayMode));
          if (!failed) continue;
          const items = a.scoreDisplayMode === 'error' ? [`the audit itself failed: ${a.errorMessage ?? 'no message'}`] : itemsOf(a);
          failing.set(`${category}\u0000${a.id}`, { category, id: a.id, title: a.title, items });
        }
      }
      const errored: Run['errored'] = new Map();
      for (const a of Object.values(lhr.audits)) {
        if (a.scoreDisplayMode !== 'error') continue;
        const weighted = Object.values(lhr.categories).some((c) => c.auditRefs.some((ref) => ref.id === a.id && ref.weight > 0));
        errored.set(a.id, { message: (a.errorMessage ?? 'no message').replace(/\s+/g, ' '), weighted });
      }
      return { scores, metrics, failing, errored, warnings: lhr.runWarnings.map(String), benchmarkIndex: lhr.environment.benchmarkIndex, chrome: lhr.environment.hostUserAgent.match(/Chrome\/[\d.]+/)?.[0] ?? '' };
    } finally {
      await browser.disconnect().catch(() => undefined);
    }
  } finally {
    launching = undefined;
    chrome.kill();
  }
}

/** The Chromium of the audit under way (or being started) and the server, for a stop. */
let launching: Promise<chromeLauncher.LaunchedChrome> | undefined;
let activeServer: Server | undefined;

function printTable(pages: Page[], results: Map<string, Run[]>, errors: Map<string, string>) {
  const width = 24;
  const labelWidth = 16;
  const cells = (f: (page: Page, runs: Run[]) => string) =>
    pages.map((p) => {
      const runs = results.get(p.key) ?? [];
      return (errors.has(p.key) && runs.length < RUNS ? 'not measured' : f(p, runs)).padEnd(width);
    });
  console.log(`\n${''.padEnd(labelWidth)}${pages.map((p) => p.label.padEnd(width)).join('')}`);
  for (const c of CATEGORIES) {
    const row = cells((p, runs) => {
      const values = runs.map((r) => r.scores[c.id]).filter((v): v is number => v !== null);
      if (!values.length) return 'n/a';
      const value = Math.round(median(values));
      const target = p.targets[c.id];
      if (target === undefined) return `${String(value).padStart(3)}  (no target)`;
      return `${String(value).padStart(3)}  ${(target === 100 ? '= 100' : `≥ ${target}`).padEnd(5)} ${value >= target ? 'ok' : 'BELOW'}`;
    });
    console.log(`${c.label.padEnd(labelWidth)}${row.join('')}`);
  }
  for (const m of METRICS) {
    const row = cells((_p, runs) => {
      const values = runs.map((r) => r.metrics[m.id]).filter((v): v is number => v !== null && v !== undefined);
      return values.length ? m.format(median(values)).padStart(8) : 'n/a';
    });
    console.log(`${m.label.padEnd(labelWidth)}${row.join('')}`);
  }
  if (RUNS > 1) {
    console.log(`\nmedians of ${RUNS} runs; Performance per run: ${pages.map((p) => `${p.label} ${(results.get(p.key) ?? []).map((r) => r.scores.performance ?? 'n/a').join(' / ')}`).join(' · ')}`);
  }
}

function printFailing(pages: Page[], results: Map<string, Run[]>) {
  const label = (id: CategoryId) => CATEGORIES.find((c) => c.id === id)!.label;
  console.log('\nFailing audits (Accessibility, Best Practices, SEO):');
  for (const p of pages) {
    const runs = results.get(p.key) ?? [];
    if (!runs.length) continue;
    const seen = new Map<string, { audit: Run['failing'] extends Map<string, infer V> ? V : never; count: number }>();
    for (const r of runs) {
      for (const [key, audit] of r.failing) {
        const entry = seen.get(key);
        if (entry) entry.count++;
        else seen.set(key, { audit, count: 1 });
      }
    }
    if (!seen.size) {
      console.log(`  ${p.label}: none`);
      continue;
    }
    console.log(`  ${p.label}:`);
    const order = (id: CategoryId) => LISTED.indexOf(id);
    for (const { audit, count } of [...seen.values()].sort((a, b) => order(a.audit.category) - order(b.audit.category))) {
      const often = runs.length > 1 ? ` (${count} of ${runs.length} runs)` : '';
      console.log(`    ${label(audit.category).padEnd(15)} ${audit.id}: ${audit.title}${often}`);
      for (const item of audit.items) console.log(`    ${''.padEnd(15)}   - ${item}`);
    }
  }
}

/**
 * Audits that Lighthouse could not run (a gatherer that fails on this Chromium's trace, say): their
 * diagnostics are missing from the reports; a weighted one lowers its category's score.
 */
function printErrored(pages: Page[], results: Map<string, Run[]>) {
  const byAudit = new Map<string, { message: string; weighted: boolean; pages: Set<string> }>();
  for (const p of pages) {
    for (const r of results.get(p.key) ?? []) {
      for (const [id, e] of r.errored) {
        const entry = byAudit.get(id) ?? { ...e, pages: new Set<string>() };
        entry.pages.add(p.label);
        byAudit.set(id, entry);
      }
    }
  }
  if (!byAudit.size) return;
  // One line per cause: "Required TraceElements gatherer encountered an error: Dependency "RootCauses"
  // failed with exception: …" is the RootCauses gatherer's error.
  const byCause = new Map<string, string[]>();
  for (const [id, e] of byAudit) {
    const gatherer = e.message.match(/Dependency "(\w+)" failed/)?.[1] ?? e.message.match(/^Required (\w+) gatherer/)?.[1];
    const cause = e.message.replace(/^Required \w+ gatherer encountered an error: /, '').replace(/^Dependency "\w+" failed with exception: /, '');
    const where = e.pages.size === pages.length ? 'all pages' : [...e.pages].join(', ');
    const key = `${gatherer ? `${gatherer} gatherer: ` : ''}${cause.length > 120 ? `${cause.slice(0, 119)}…` : cause} (${where}${e.weighted ? '; COUNTS IN A SCORE' : '; not scored'})`;
    byCause.set(key, [...(byCause.get(key) ?? []), id]);
  }
  console.log('\nAudits Lighthouse could not run (their details are missing from the reports):');
  for (const [cause, ids] of byCause) console.log(`  ${ids.join(', ')}\n    ${cause}`);
}

async function main() {
  if (!Number.isInteger(RUNS) || RUNS < 1) throw new MeasureError(`BENCH_WEB_RUNS must be a whole number ≥ 1, not "${process.env.BENCH_WEB_RUNS}"`);
  const missing = BUILD_OUTPUTS.filter((file) => !existsSync(path.join(ROOT, file)));
  if (missing.length) throw new MeasureError(`${missing.join(', ')} missing: run npm run build first`);
  if (!existsSync(CHROMIUM)) throw new MeasureError(`no Chromium at ${CHROMIUM}: run bash scripts/ensure-chromium.sh (or set CHROMIUM_PATH)`);
  const builtAt = new Date(Math.max(...BUILD_OUTPUTS.map((file) => statSync(path.join(ROOT, file)).mtimeMs)));

  const started = performance.now();
  const loadBefore = loadavg()[0]!;
  const server = await startServer();
  activeServer = server;
  const errors = new Map<string, string>();
  const results = new Map<string, Run[]>();
  let pages: Page[] = [];
  try {
    const host = `${DEMO.subdomain}.localhost:${server.port}`;
    const origin = `http://${host}`;
    const offers = await call(server.port, host, 'GET', `/api/web-stores/${DEMO.store}/experiences/`);
    if (offers.status !== 200) throw new MeasureError(`GET /api/web-stores/${DEMO.store}/experiences/ on ${host}: ${offers.status} ${offers.text.slice(0, 300)}`);
    const offer = (JSON.parse(offers.text) as { results?: { id: string }[] }).results?.[0];
    if (!offer) throw new MeasureError(`the demo's store ${DEMO.store} lists no offer`);
    pages = [
      { key: 'store', label: 'web store', url: `${origin}/s/${DEMO.store}/`, targets: STORE_TARGETS, signedIn: false },
      { key: 'offer', label: 'offer page', url: `${origin}/s/${DEMO.store}/offers/${offer.id}`, targets: STORE_TARGETS, signedIn: false },
      { key: 'dashboard', label: 'dashboard', url: `${origin}/dashboard`, targets: BACK_OFFICE_TARGETS, signedIn: true },
    ];
    // One load of each page's HTML first: the audits measure a warm server.
    for (const p of pages) {
      const u = new URL(p.url);
      const res = await call(server.port, host, 'GET', u.pathname);
      if (res.status !== 200) throw new MeasureError(`GET ${p.url}: ${res.status}`);
    }

    mkdirSync(OUT, { recursive: true });
    for (const p of pages) {
      for (const file of readdirSync(OUT)) if (file.startsWith(`${p.key}-run`) && file.endsWith('.json')) rmSync(path.join(OUT, file));
    }
    console.log(`Lighthouse, mobile profile (simulated throttling), ${RUNS} run${RUNS === 1 ? '' : 's'} per page; server on port ${server.port} (up in ${(server.startMs / 1000).toFixed(1)} s), build of ${builtAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`);
    for (let run = 1; run <= RUNS; run++) {
      for (const p of pages) {
        if (errors.has(p.key)) continue;
        const reportPath = path.join(OUT, `${p.key}-run${run}.json`);
        const t0 = performance.now();
        try {
          let r: Run | undefined;
          for (let attempt = 1; !r; attempt++) {
            try {
              r = await audit(p, server, host, reportPath);
            } catch (error) {
              if (!(error instanceof LighthouseFailed) || attempt === ATTEMPTS) throw error;
              console.error(`  ${p.label.padEnd(12)} run ${run}: ${error.message.replace(/ \(report: .*\)$/, '')} — trying again`);
            }
          }
          results.set(p.key, [...(results.get(p.key) ?? []), r]);
          console.log(`  ${p.label.padEnd(12)} run ${run}: ${p.url} — ${((performance.now() - t0) / 1000).toFixed(1)} s, ${path.relative(ROOT, reportPath)}`);
          for (const w of r.warnings) console.log(`    warning: ${w.replace(/\s+/g, ' ')}`);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          errors.set(p.key, message);
          console.error(`  ${p.label.padEnd(12)} run ${run}: FAILED — ${message}`);
          if (server.child.exitCode !== null || server.child.signalCode !== null) {
            throw new MeasureError(`the server stopped during the audits (${server.child.exitCode ?? server.child.signalCode}):\n${server.output().trim()}`);
          }
        }
      }
    }
  } finally {
    activeServer = undefined;
    await server.stop();
  }

  const any = [...results.values()][0]?.[0];
  // The simulation slows down the CPU time measured here 4×: other work on the machine lowers Performance.
  if (any) console.log(`\n${any.chrome}; Lighthouse benchmarkIndex ${any.benchmarkIndex}; load average ${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores (a busy machine lowers Performance)`);
  printTable(pages, results, errors);
  printFailing(pages, results);
  printErrored(pages, results);
  const shownOut = path.relative(ROOT, OUT);
  console.log(`\nReports: ${shownOut.startsWith('..') ? OUT : shownOut}/ (open one in https://googlechrome.github.io/lighthouse/viewer/). Took ${((performance.now() - started) / 1000).toFixed(0)} s.`);
  if (errors.size) {
    console.error(`\nNot measured: ${[...errors].map(([key, message]) => `${pages.find((p) => p.key === key)?.label ?? key}: ${message}`).join('\n  ')}`);
    process.exitCode = 1;
  }
}

// Ctrl-C or a stop: the Chromium and the server this started go too, and the temporary data.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`bench:web: ${signal}, stopping`);
    const chrome = launching?.then((c) => c.kill(), () => undefined);
    const server = activeServer?.stop();
    void Promise.allSettled([chrome, server]).finally(() => process.exit(130));
  });
}

main().catch((error) => {
  console.error(error instanceof MeasureError ? `bench:web: ${error.message}` : error);
  process.exitCode = 1;
});
