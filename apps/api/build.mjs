// Bundles the API into dist/server.js (and the migration command into dist/migrate.js, backup and restore into dist/backup.js). Workspace packages (TypeScript sources) are bundled in;
// every npm dependency stays external and is loaded from node_modules at run time.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@tourdesk/'));

await build({
  entryPoints: { server: 'src/server.ts', migrate: 'src/migrate-cli.ts', backup: 'src/backup-cli.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: [...external, ...external.map((name) => `${name}/*`)],
  logLevel: 'warning',
});
console.log('api: built dist/server.js, dist/migrate.js and dist/backup.js');
