// Prints the gzip size of every route chunk of the built web app (npm run build first),
// so that budgets can be held: the entry (shell), each lazily loaded page, and their CSS.
// Then the back office's budgets: its initial load with React DOM (200 kB) and the offer editor opened on any of
// its steps (120 kB each). Then the web store's initial
// load (its entry and the chunks it imports statically, its CSS, and embed.js). Fails (exit 1)
// when a budget is over.
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

// --- the back office's budgets -------------------------------------------------------------------
// What the browser loads before the first page draws: the entry and the chunks it imports statically,
// and then, unasked, the toast container; a page's own chunk comes on top (its figure is above).
// And what opening the offer editor on a step loads beyond that: the editor's chunk and the step's,
// with everything they import (each shared chunk counted once). The budget holds for every step: a
// new offer opens on the first, a link or a reload may open any other (the Description step carries
// the rich-text editor, RichTextInput on Squire, which no other page loads).
const BACK_OFFICE_BUDGET = 200 * 1024;
const EDITOR_BUDGET = 120 * 1024;
const entryKeyWeb = Object.keys(manifest).find((k) => manifest[k].isEntry);
const gzipOf = (keys) => [...keys].map((k) => sizeOf(manifest[k].file).gzip).reduce((a, b) => a + b, 0);
const initialWeb = new Set([entryKeyWeb, ...closure(entryKeyWeb)]);
const beyondEntry = (...keys) => new Set(keys.flatMap((k) => [k, ...closure(k)]).filter((k) => !initialWeb.has(k)));
const failures = [];
const report = (label, bytes, budget) => {
  if (budget === undefined) return console.log(`${label.padEnd(56)}${kb(bytes)}`);
  const within = bytes <= budget;
  console.log(`${label.padEnd(56)}${kb(bytes)} of ${budget / 1024} kB${within ? '' : '  OVER BUDGET'}`);
  if (!within) failures.push(label);
};
console.log('');
console.log('back office budgets (JavaScript, gzip)');
// App mounts the toast container when the page is first idle: it is counted with the first load.
const toastsKey = 'src/app/Toasts.tsx';
if (!manifest[toastsKey]?.isDynamicEntry) {
  console.error(`The manifest has no lazily loaded ${toastsKey}.`);
  process.exit(1);
}
report('entry + static imports', gzipOf(initialWeb));
report('first load (the above + the toast container, when idle)', gzipOf(new Set([...initialWeb, ...beyondEntry(toastsKey)])), BACK_OFFICE_BUDGET);
// The shell (header, menu) is a lazy layout route: the sign-in pages never load it, and every signed-in
// page loads it beside its own chunk. Printed, not budgeted: what a signed-in page loads before its own chunk.
const shellKey = Object.keys(manifest).find((k) => /(^|\/)_?AppLayout[-.]/.test(k) || k === 'src/app/layout/AppLayout.tsx');
if (!shellKey || !manifest[shellKey].isDynamicEntry) {
  console.error('The manifest has no lazily loaded AppLayout (the signed-in shell).');
  process.exit(1);
}
report('a signed-in page: first load + the shell (AppLayout)', gzipOf(new Set([...initialWeb, ...beyondEntry(toastsKey, shellKey)])));
const editorKey = 'src/features/experiences/EditorPage.tsx';
const stepKeys = Object.keys(manifest).filter((k) => k.startsWith('src/features/experiences/steps/') && manifest[k].isDynamicEntry);
if (!manifest[editorKey] || stepKeys.length === 0) {
  console.error(`The manifest has no ${editorKey} or no lazily loaded editor step.`);
  process.exit(1);
}
const firstStep = 'src/features/experiences/steps/BasicInfoStep.tsx';
if (!stepKeys.includes(firstStep)) {
  console.error(`The manifest has no lazily loaded ${firstStep}.`);
  process.exit(1);
}
for (const step of [firstStep, ...stepKeys.filter((k) => k !== firstStep).sort()]) {
  report(`offer editor opened on ${path.basename(step, '.tsx')}`, gzipOf(beyondEntry(editorKey, step)), EDITOR_BUDGET);
}

// --- the web store (apps/store): its own bundle, budget 90 KB gzip of initial JavaScript with React DOM
const STORE_BUDGET = 90 * 1024;
const storeDist = path.resolve('apps/store/dist');
const storeManifestPath = path.join(storeDist, '.vite', 'manifest.json');
if (!existsSync(storeManifestPath)) {
  console.error('No web store build found: run `npm run build` first.');
  process.exit(1);
}
const storeManifest = JSON.parse(readFileSync(storeManifestPath, 'utf8'));
const storeSize = (file) => {
  const buf = readFileSync(path.join(storeDist, file));
  return { raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length };
};
const add = (a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip });
const entryKey = 'src/main.tsx';
if (!storeManifest[entryKey]) {
  console.error(`The web store's manifest has no ${entryKey}.`);
  process.exit(1);
}
// The entry and every chunk it imports statically (what the browser loads before the page works).
const initial = new Set([entryKey]);
for (const key of initial) for (const dep of storeManifest[key]?.imports ?? []) initial.add(dep);
const initialJs = [...initial].map((k) => storeSize(storeManifest[k].file)).reduce(add, { raw: 0, gzip: 0 });
const initialCss = [...new Set([...initial].flatMap((k) => storeManifest[k].css ?? []))].map(storeSize).reduce(add, { raw: 0, gzip: 0 });
const embed = existsSync(path.join(storeDist, 'embed.js')) ? storeSize('embed.js') : null;

console.log('');
console.log(`${'web store'.padEnd(56)}${'js raw'.padStart(10)}${'js gzip'.padStart(10)}${'css gzip'.padStart(10)}`);
console.log(`${`${entryKey} (initial: entry + ${initial.size - 1} static imports)`.padEnd(56)}${kb(initialJs.raw)}${kb(initialJs.gzip)}${kb(initialCss.gzip)}`);
if (embed) console.log(`${'embed.js'.padEnd(56)}${kb(embed.raw)}${kb(embed.gzip)}${kb(0)}`);
if (initialJs.gzip > STORE_BUDGET) {
  console.error(`The web store's initial JavaScript is ${(initialJs.gzip / 1024).toFixed(1)} KB gzip, over its budget of ${STORE_BUDGET / 1024} KB.`);
  process.exit(1);
}
console.log(`web store initial JavaScript within its budget: ${(initialJs.gzip / 1024).toFixed(1)} KB of ${STORE_BUDGET / 1024} KB gzip`);
if (failures.length > 0) {
  console.error(`Over budget: ${failures.join('; ')}.`);
  process.exit(1);
}
