// npm start: builds the web app and the API only when their sources changed since the last build,
// then becomes the server (with START_BUILD_ONLY=1 it stops after the build check: scripts/cluster.ts).
//
// The build's inputs are fingerprinted by path, size and modification time (a few milliseconds for
// the whole tree; reading every file's content would take longer and miss nothing `touch` would
// not); the fingerprint of a successful build is kept in apps/api/dist/.build-stamp (dist is not
// in git). A missing output, a missing stamp or any added, removed or changed input runs
// `npm run build`; the stamp is written only after it succeeds, with the fingerprint taken before
// it started (a file saved during the build is built next time).
//
// Then the server runs in this process's place: on Node.js with process.execve (22.15+, 23.11+)
// the process is replaced, so signals reach the server itself; on older ones the server is a child
// that gets every SIGTERM/SIGINT/SIGHUP this process gets, and its exit status is this one's.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const STAMP = 'apps/api/dist/.build-stamp';
const OUTPUTS = ['apps/api/dist/server.js', 'apps/web/dist/index.html', 'apps/store/dist/.vite/manifest.json'];
/** The Node flags of the server (a 32 MB young generation: see scripts/bench.ts). */
const SERVER = ['--max-semi-space-size=32', 'apps/api/dist/server.js'];

/** Folders whose files are built (tests, e2e specs and build output are not). */
const TREES = [
  { dir: 'apps/web', skip: ['dist', 'node_modules', 'e2e'] },
  { dir: 'apps/store', skip: ['dist', 'node_modules'] },
  { dir: 'apps/api', skip: ['dist', 'node_modules', 'test'] },
  { dir: 'packages/contracts', skip: ['dist', 'node_modules'] },
];
/** Single files the build reads besides those: the workspace, the lock files, the shared tsconfig. */
const FILES = ['package.json', 'package-lock.json', 'tsconfig.base.json', 'node_modules/.package-lock.json'];
/** Files nothing built imports: unit tests, Vitest configs, editors' swap and backup files. */
const IGNORED = /(\.(test|spec)\.[cm]?[jt]sx?|^vitest\.config\.[cm]?[jt]s|\.sw[a-p]|~)$|^\.#/;

/** path → "size:mtime" of every build input, sorted by path. */
function inputs() {
  const files = {};
  const add = (rel) => {
    try {
      const st = statSync(path.join(root, rel));
      if (st.isFile()) files[rel] = `${st.size}:${st.mtimeMs}`;
    } catch {
      files[rel] = 'missing';
    }
  };
  const walk = (rel, skip) => {
    let entries;
    try {
      entries = readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!skip.includes(entry.name)) walk(child, []);
      } else if (!IGNORED.test(entry.name)) add(child);
    }
  };
  for (const tree of TREES) walk(tree.dir, tree.skip);
  for (const file of FILES) add(file);
  return Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1)));
}

const fingerprint = (files) => createHash('sha256').update(JSON.stringify(files)).digest('hex');

/** Why a build is needed, or null when the last one is still good. */
function whyBuild(files, digest) {
  const missing = OUTPUTS.filter((file) => !existsSync(path.join(root, file)));
  if (missing.length) return `${missing.join(', ')} missing`;
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(path.join(root, STAMP), 'utf8'));
  } catch {
    return 'no record of the last build';
  }
  if (stamp.fingerprint === digest) return null;
  const before = stamp.files ?? {};
  const changed = [...new Set([...Object.keys(before), ...Object.keys(files)])].filter((file) => before[file] !== files[file]);
  if (!changed.length) return 'the build inputs changed';
  return `${changed.length} file${changed.length === 1 ? '' : 's'} changed since the last build (${changed.slice(0, 3).join(', ')}${changed.length > 3 ? ', …' : ''})`;
}

const started = performance.now();
const files = inputs();
const digest = fingerprint(files);
const reason = whyBuild(files, digest);
if (reason) {
  process.stdout.write(`start: building, ${reason}\n`);
  // The npm that runs this script, when there is one (npm_execpath), else the npm on the PATH.
  const cli = process.env.npm_execpath;
  const npm = cli && /npm-cli\.js$/.test(cli) ? [process.execPath, [cli]] : ['npm', []];
  const build = spawnSync(npm[0], [...npm[1], 'run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error(`start: the build failed (${build.error?.message ?? build.signal ?? `exit code ${build.status}`}); not starting`);
    process.exit(build.status || 1);
  }
  mkdirSync(path.dirname(path.join(root, STAMP)), { recursive: true });
  writeFileSync(path.join(root, STAMP), `${JSON.stringify({ fingerprint: digest, files })}\n`);
} else {
  process.stdout.write(`start: sources unchanged since the last build, reusing it (checked ${Object.keys(files).length} files in ${Math.round(performance.now() - started)} ms)\n`);
}

// START_BUILD_ONLY=1: only the build check (npm run cluster builds this way, then starts its own servers).
if (process.env.START_BUILD_ONLY === '1') process.exit(0);

// Replace this process with the server where Node.js can (stdout and stderr are written
// synchronously on Linux, so the line above is out before it).
if (typeof process.execve === 'function' && process.platform !== 'win32') {
  try {
    process.chdir(root);
    process.execve(process.execPath, [process.execPath, ...SERVER], process.env);
  } catch (error) {
    console.error(`start: could not replace this process with the server (${error.message}); running it as a child`);
  }
}

const child = spawn(process.execPath, SERVER, { cwd: root, stdio: 'inherit' });
// A signal sent to the whole process group (Ctrl-C, or npm's group signalled) reaches the server
// directly as well; the server shuts down once whatever number of times it is told.
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}
child.on('error', (error) => {
  console.error(`start: could not run the server (${error.message})`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  if (signal) {
    // Die of the same signal, so whoever started npm sees what the server saw.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else process.exit(code ?? 1);
});
