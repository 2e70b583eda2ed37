// Prints the gzip size of every route chunk of the built web app (npm run build first),
// so that budgets can be held: the entry (shell), each lazily loaded page, and their CSS.
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = path.resolve('apps/web/dist');
const manifestPath = path.join(dist, '.vite', 'manifest.json');
if (!existsSync(manifestPath)) {
  console.error('No build found: run `npm run build` first.');
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const sizeOf = (file) => {
  const buf = readFileSync(path.join(dist, file));
  return { raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length };
};
const kb = (n) => `${(n / 1024).toFixed(1)} kB`.padStart(10);

/** Static imports a chunk pulls in with it (excluding the entry, which is always loaded). */
function closure(key, seen = new Set()) {
  for (const dep of manifest[key]?.imports ?? []) {
    if (!seen.has(dep) && !manifest[dep]?.isEntry) {
      seen.add(dep);
      closure(dep, seen);
    }
  }
  return seen;
}

const rows = Object.entries(manifest)
  .filter(([, chunk]) => chunk.isEntry || chunk.isDynamicEntry)
  .map(([key, chunk]) => {
    const files = [chunk.file, ...[...closure(key)].map((k) => manifest[k].file)];
    const css = [...(chunk.css ?? [])];
    const js = files.map(sizeOf).reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 });
    const styles = css.map(sizeOf).reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 });
    return { name: chunk.isEntry ? `${key} (entry)` : key, js, styles };
  })
  .sort((a, b) => b.js.gzip - a.js.gzip);

console.log(`${'chunk'.padEnd(56)}${'js raw'.padStart(10)}${'js gzip'.padStart(10)}${'css gzip'.padStart(10)}`);
for (const row of rows) {
  console.log(`${row.name.padEnd(56)}${kb(row.js.raw)}${kb(row.js.gzip)}${kb(row.styles.gzip)}`);
}
