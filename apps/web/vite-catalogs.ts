import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformWithEsbuild, type Plugin } from 'vite';
// Relative, so that the config's bundler compiles it (Node runs no TypeScript of a workspace package).
import { parseCatalog } from '../../packages/contracts/src/i18n/messages';

const CATALOGS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../packages/contracts/src/i18n/catalogs');
/** The back office's catalogs: packages/contracts/src/i18n/catalogs/backoffice/<domain>/<language>.ts. */
const BACKOFFICE = path.join(CATALOGS, 'backoffice');
/** The customer's (catalogs/customer/<language>.ts): an order's invoice sheet reads as its PDF (orders/invoice-texts.ts). */
const CUSTOMER = path.join(CATALOGS, 'customer');
const isCatalog = (id: string) => {
  const file = id.split('?')[0]!;
  return [BACKOFFICE, CUSTOMER].some((dir) => file.startsWith(`${dir}${path.sep}`)) && /[\\/][a-z]{2}\.ts$/.test(file);
};

/**
 * The browser gets the back office's catalogs already parsed: a catalog module imported by the app
 * becomes its messages' FormatJS ASTs (parseCatalog, here at build time), under the same export
 * names, so the bundle carries no ICU parser (vite.config.ts swaps it for its no-parser stub) and
 * parses nothing at run time. A catalog module holds one object literal (and type-only imports):
 * anything it imports at run time is refused.
 */
export function parsedCatalogs(): Plugin {
  return {
    name: 'tourdesk:parsed-catalogs',
    enforce: 'pre',
    async load(id) {
      if (!isCatalog(id)) return null;
      const file = id.split('?')[0]!;
      const source = await readFile(file, 'utf8');
      this.addWatchFile(file);
      const { code } = await transformWithEsbuild(source, file, { loader: 'ts', format: 'esm', target: 'es2022' });
      if (/^\s*import\s/m.test(code)) this.error(`${file}: a catalog imports nothing at run time (type-only imports only)`);
      const module = (await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as Record<string, unknown>;
      const exports = Object.entries(module).map(([name, value]) => {
        if (!value || typeof value !== 'object') this.error(`${file}: export ${name} is not a catalog`);
        return `export const ${name} = /*#__PURE__*/ JSON.parse(${JSON.stringify(JSON.stringify(parseCatalog(value as Record<string, string>)))});`;
      });
      return { code: exports.join('\n'), map: null };
    },
  };
}
