import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * scripts/start.mjs (npm start) in a tree of its own: a stand-in build that counts its runs and
 * a stand-in server that says how it was started and exits with 7 on SIGTERM. It builds only
 * when a build input changed or an output is missing, keeps no record of a failed build, and
 * hands signals and the exit status through to the server.
 */
const startScript = fileURLToPath(new URL('../../../scripts/start.mjs', import.meta.url));
const root = mkdtempSync(path.join(tmpdir(), 'tourdesk-start-'));
const at = (rel: string) => path.join(root, rel);

function write(rel: string, text: string) {
  mkdirSync(path.dirname(at(rel)), { recursive: true });
  writeFileSync(at(rel), text);
}

write('package.json', JSON.stringify({ name: 'start-fixture', private: true, type: 'module', scripts: { build: 'node build.mjs' } }));
write('package-lock.json', '{}');
write('tsconfig.base.json', '{}');
write('apps/web/src/main.tsx', 'export {};\n');
write('apps/web/src/main.test.tsx', 'export {};\n');
write('apps/api/src/server.ts', 'export {};\n');
write('apps/store/src/main.tsx', 'export {};\n');
write('apps/api/test/api.int.test.ts', 'export {};\n');
write('packages/contracts/src/index.ts', 'export {};\n');
write(
  'build.mjs',
  `import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
appendFileSync('builds.log', 'built\\n');
if (existsSync('fail')) process.exit(2);
mkdirSync('apps/api/dist', { recursive: true });
mkdirSync('apps/web/dist', { recursive: true });
writeFileSync('apps/web/dist/index.html', '<!doctype html>');
mkdirSync('apps/store/dist/.vite', { recursive: true });
writeFileSync('apps/store/dist/.vite/manifest.json', '{}');
writeFileSync('apps/api/dist/server.js', ${JSON.stringify(`
let stops = 0;
process.on('SIGTERM', () => {
  if (stops++) return;
  process.stdout.write('server stopping\\n');
  setTimeout(() => process.exit(7), 50);
});
// Up only once it listens for the stop (the test stops it as soon as it reads this line).
process.stdout.write('server up ' + JSON.stringify(process.execArgv) + '\\n');
setInterval(() => {}, 1000);
`)});
`,
);
mkdirSync(at('scripts'));
copyFileSync(startScript, at('scripts/start.mjs'));

afterAll(() => rmSync(root, { recursive: true, force: true }));

const builds = () => (existsSync(at('builds.log')) ? readFileSync(at('builds.log'), 'utf8').split('\n').filter(Boolean).length : 0);

/** Runs npm start's script until the server is up (then stops it) or it exits on its own. */
async function start({ stopGroup = false } = {}) {
  const child = spawn(process.execPath, [at('scripts/start.mjs')], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 20_000;
  while (!output.includes('server up') && child.exitCode === null) {
    if (Date.now() > deadline) throw new Error(`no server:\n${output}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  if (child.exitCode === null) {
    // A stop as from a terminal (the whole process group), or as from npm (this process alone).
    if (stopGroup) process.kill(-child.pid!, 'SIGTERM');
    else child.kill('SIGTERM');
  }
  const code = await exited;
  return { code, output };
}

/** Marks a file as saved now (its content unchanged). */
const touch = (rel: string) => utimesSync(at(rel), new Date(), new Date(Date.now() + 1000 * Math.random()));

describe('npm start (scripts/start.mjs)', () => {
  it('builds a tree with no build, then reuses it until an input changes', async () => {
    const first = await start();
    expect(first.output).toMatch(/^start: building, .*missing/m);
    expect(builds()).toBe(1);
    // The server runs with the Node flags of npm start, gets the SIGTERM, and its exit code is npm start's.
    expect(first.output).toContain('server up ["--max-semi-space-size=32"]');
    expect(first.output).toContain('server stopping');
    expect(first.code).toBe(7);

    const second = await start({ stopGroup: true });
    expect(second.output).toMatch(/^start: sources unchanged since the last build, reusing it/m);
    expect(second.output).toContain('server up');
    expect(second.code).toBe(7);
    expect(builds()).toBe(1);

    // Tests are not build inputs.
    touch('apps/api/test/api.int.test.ts');
    touch('apps/web/src/main.test.tsx');
    expect((await start()).output).toContain('reusing it');
    expect(builds()).toBe(1);

    touch('apps/web/src/main.tsx');
    expect((await start()).output).toMatch(/^start: building, 1 file changed since the last build \(apps\/web\/src\/main\.tsx\)/m);
    expect(builds()).toBe(2);

    write('packages/contracts/src/new.ts', 'export {};\n');
    expect((await start()).output).toContain('(packages/contracts/src/new.ts)');
    expect(builds()).toBe(3);

    touch('package-lock.json');
    expect((await start()).output).toContain('(package-lock.json)');
    expect(builds()).toBe(4);

    rmSync(at('apps/web/dist/index.html'));
    expect((await start()).output).toContain('apps/web/dist/index.html missing');
    expect(builds()).toBe(5);
    expect((await start()).output).toContain('reusing it');
    expect(builds()).toBe(5);
  });

  it('does not start, nor record the build, when the build fails', async () => {
    touch('apps/api/src/server.ts');
    write('fail', '');
    const before = builds();
    const failed = await start();
    expect(failed.code).not.toBe(0);
    expect(failed.output).toContain('start: the build failed');
    expect(failed.output).not.toContain('server up');
    // The next start builds again (the last good build's record is not taken for this one).
    rmSync(at('fail'));
    const next = await start();
    expect(next.output).toContain('start: building');
    expect(next.output).toContain('server up');
    expect(builds()).toBe(before + 2);
    expect((await start()).output).toContain('reusing it');
  });
});
