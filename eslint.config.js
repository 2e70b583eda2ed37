import { readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import ts from 'typescript';
import tseslint from 'typescript-eslint';

/**
 * No import cycles between the files of CYCLE_ROOTS, type-only imports included (a type cycle ties
 * two modules together as surely as a value one; import-x's and eslint-plugin-import's no-cycle
 * skip every `import type`, so this is a rule of its own). The graph counts every `import`,
 * `export … from`, `import()` and `import('…')` type, resolved as tsc resolves them (workspace
 * packages included); it is built once per run and kept current by the files' modification
 * times (and the linted file's own text, for an editor). Each import that closes a cycle is
 * reported with the way back.
 */
const CYCLE_ROOTS = ['apps/api/src', 'apps/api/test', 'packages/contracts/src', 'apps/store/src', 'apps/web/src'];
const repo = path.dirname(fileURLToPath(import.meta.url));
const resolution = { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, resolveJsonModule: true };
const resolvedImports = new Map();
function resolveImport(specifier, from) {
  const key = `${path.dirname(from)}\0${specifier}`;
  if (resolvedImports.has(key)) return resolvedImports.get(key);
  const found = ts.resolveModuleName(specifier, from, resolution, ts.sys).resolvedModule;
  const file = found && !found.resolvedFileName.endsWith('.d.ts') ? realpathSync(found.resolvedFileName) : null;
  // A relative import of a file not written yet may resolve later (an editor's session).
  if (file || !specifier.startsWith('.')) resolvedImports.set(key, file);
  return file;
}
const graph = { files: new Map(), component: new Map(), checkedAt: 0 };
const importsOf = (file, text) => new Set(ts.preProcessFile(text, true, true).importedFiles.map((i) => resolveImport(i.fileName, file)).filter((f) => f && f !== file));
function sourceFiles(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') sourceFiles(full, out);
    } else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}
/** Tarjan's strongly connected components: files of one component (two or more) import each other. */
function components() {
  const index = new Map(), low = new Map(), stack = [], onStack = new Set();
  graph.component.clear();
  let next = 0;
  const visit = (file) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.files.get(file).imports) {
      if (!graph.files.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file), low.get(target)));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file), index.get(target)));
    }
    if (low.get(file) !== index.get(file)) return;
    const members = [];
    for (let member; member !== file; ) {
      member = stack.pop();
      onStack.delete(member);
      members.push(member);
    }
    if (members.length > 1) for (const member of members) graph.component.set(member, file);
  };
  for (const file of graph.files.keys()) if (!index.has(file)) visit(file);
}
/** Brings the graph up to date with the files on disk (at most once a second) and the linted file's text. */
function currentGraph(file, text) {
  let changed = false;
  if (Date.now() - graph.checkedAt > 1000) {
    const seen = new Set();
    for (const root of CYCLE_ROOTS) {
      for (const found of sourceFiles(path.join(repo, root))) {
        const real = realpathSync(found);
        const mtime = statSync(real).mtimeMs;
        seen.add(real);
        if (graph.files.get(real)?.mtime === mtime) continue;
        graph.files.set(real, { mtime, imports: importsOf(real, ts.sys.readFile(real) ?? '') });
        changed = true;
      }
    }
    for (const known of graph.files.keys()) {
      if (seen.has(known)) continue;
      graph.files.delete(known);
      changed = true;
    }
    graph.checkedAt = Date.now();
  }
  const own = graph.files.get(file);
  if (own) {
    const imports = importsOf(file, text);
    if (imports.size !== own.imports.size || [...imports].some((f) => !own.imports.has(f))) {
      own.imports = imports;
      changed = true;
    }
  }
  if (changed) components();
  return graph;
}
/** The shortest way from `from` back to `to` inside their component. */
function wayBack(from, to) {
  const previous = new Map([[from, null]]);
  for (const queue = [from]; queue.length > 0; ) {
    const file = queue.shift();
    if (file === to) break;
    for (const target of graph.files.get(file).imports) {
      if (previous.has(target) || graph.component.get(target) !== graph.component.get(to)) continue;
      previous.set(target, file);
      queue.push(target);
    }
  }
  const way = [];
  for (let file = to; file; file = previous.get(file)) way.unshift(file);
  return way;
}
const noImportCycle = {
  meta: { type: 'problem', messages: { cycle: 'Import cycle: {{way}}. Move what both sides need below them (a shared file, or the module both use).' }, schema: [] },
  create(context) {
    const file = realpathSync(context.physicalFilename);
    const { component } = currentGraph(file, context.sourceCode.text);
    if (!component.has(file)) return {};
    const check = (node, specifier) => {
      const target = typeof specifier === 'string' ? resolveImport(specifier, file) : null;
      if (!target || component.get(target) !== component.get(file)) return;
      const way = [file, ...wayBack(target, file)].map((f) => path.relative(repo, f));
      context.report({ node, messageId: 'cycle', data: { way: way.join(' → ') } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => check(node, node.source.value),
      TSImportType: (node) => check(node, node.argument?.literal?.value),
    };
  },
};

/**
 * The API's modules have three layers (ARCHITECTURE.md, "Conventions"): routes speak HTTP, services
 * hold the rules and take a ctx, queries are the only files that touch the database. Outside a
 * module's queries.ts (or its queries/ folder) and DATABASE_LAYER, no file of apps/api/src/modules
 * or apps/api/src/lib
 * - imports Drizzle, re-exports it or loads it with import() (a type included);
 * - imports, re-exports or loads a value from src/db (a row's type may be named with `import type`);
 * - touches a database handle: any property of a value whose TYPE is one (Drizzle's database or
 *   transaction, pg's Pool/PoolClient/Client, PGlite, src/db's SqlExecutor), whatever it is called
 *   (`trx.execute`, `const { tx: t } = ctx; t.select`, `pool.query`, `tx['select']`,
 *   `tx.execute.bind(tx)`), nor destructures one (`const { select } = tx`). Passing a handle on (to
 *   a queries function) is allowed.
 * Outside its HTTP edge (routes.ts, *-routes.ts and HTTP_EDGE) no file names Fastify's request or
 * reply. Tests are outside the rule. The rule needs type information (typed linting of these files).
 */
const HTTP_EDGE = new Set(['modules/auth/cookies.ts', 'modules/auth/guard.ts', 'modules/auth/principal.ts', 'modules/octo/auth.ts', 'modules/web-store/pages.ts', 'lib/crud.ts', 'lib/errors.ts', 'lib/host.ts', 'lib/list-export.ts', 'lib/pagination.ts']);
/** Files of apps/api/src/lib that ARE the database layer, each for its reason. */
const DATABASE_LAYER = new Map([
  ['lib/tenancy.ts', 'opens the tenant transaction (role, account, lock timeout) every tenant query runs in'],
  ['lib/crud-queries.ts', 'the queries of registerCrud() (lib/crud.ts): one table-generic queries file for every simple CRUD resource'],
  ['lib/throttle.ts', 'the queries of the shared rate_limit table (auth, users and the HTTP rate limit all count in it)'],
  ['lib/jobs.ts', 'the job queue (pg-boss) runs in the application\'s own database and transactions'],
]);
/** Type names of database handles, with the packages (or src/db) that declare them. */
const HANDLE_TYPES = new Set(['PgDatabase', 'PgTransaction', 'NodePgDatabase', 'PgliteDatabase', 'Pool', 'PoolClient', 'Client', 'PGlite', 'PGliteInterface', 'Transaction', 'SqlExecutor']);
const HANDLE_HOMES = /[\\/](node_modules[\\/](drizzle-orm|pg|@types[\\/]pg|@electric-sql[\\/]pglite)|apps[\\/]api[\\/]src[\\/]db)[\\/]/;
function isHandleType(type, checker, seen = new Set()) {
  if (!type || seen.has(type)) return false;
  seen.add(type);
  if (type.isUnionOrIntersection()) return type.types.some((t) => isHandleType(t, checker, seen));
  for (const symbol of [type.getSymbol(), type.aliasSymbol]) {
    if (symbol && HANDLE_TYPES.has(symbol.getName()) && (symbol.getDeclarations() ?? []).some((d) => HANDLE_HOMES.test(d.getSourceFile().fileName))) return true;
  }
  const target = type.target ?? type;
  if (target.isClassOrInterface?.()) return (checker.getBaseTypes(target) ?? []).some((t) => isHandleType(t, checker, seen));
  return false;
}
const apiSrc = path.join(repo, 'apps/api/src');
const dbDir = path.join(apiSrc, 'db') + path.sep;
export const moduleLayers = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      drizzle: 'Only a module\'s queries.ts imports Drizzle: move this query there and call it.',
      database: 'Only a module\'s queries.ts imports from src/db (a row\'s type may be imported with `import type`).',
      call: 'Only a module\'s queries.ts touches the database: move `{{call}}` into a function of queries.ts.',
      request: 'Services never see the request: the route reads what it needs from it and passes a ctx and plain values.',
      types: 'module-layers needs type information: lint this file with parserOptions.projectService.',
    },
  },
  create(context) {
    const file = path.relative(apiSrc, context.physicalFilename).split(path.sep).join('/');
    if (!/^(modules|lib)\//.test(file) || /\.test\.tsx?$/.test(file)) return {};
    const inQueries = /^modules\/.*(^|\/)queries(\.ts$|\/)/.test(file) || DATABASE_LAYER.has(file);
    const httpEdge = /^modules\/.*(\/|-)routes\.ts$/.test(file) || HTTP_EDGE.has(file);
    const typeOnly = (node) =>
      node.importKind === 'type' || node.exportKind === 'type' || (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));
    const checkSource = (node, specifier, valueUse) => {
      if (typeof specifier !== 'string' || inQueries) return;
      if (/^drizzle-orm(\/|$)/.test(specifier)) return context.report({ node, messageId: 'drizzle' });
      if (!valueUse) return;
      const target = resolveImport(specifier, realpathSync(context.physicalFilename));
      if (target?.startsWith(dbDir)) context.report({ node, messageId: 'database' });
    };
    const services = context.sourceCode.parserServices;
    const typed = !inQueries && services?.program && services.esTreeNodeToTSNodeMap;
    const checker = typed ? services.program.getTypeChecker() : null;
    const isHandle = (node) => isHandleType(checker.getTypeAtLocation(services.esTreeNodeToTSNodeMap.get(node)), checker);
    return {
      Program(node) {
        if (!inQueries && !typed) context.report({ node, messageId: 'types' });
      },
      ImportDeclaration(node) {
        checkSource(node, node.source.value, !typeOnly(node));
        if (!httpEdge && node.source.value === 'fastify' && node.specifiers.some((s) => s.type === 'ImportSpecifier' && ['FastifyRequest', 'FastifyReply'].includes(s.imported.name))) {
          context.report({ node, messageId: 'request' });
        }
      },
      ExportNamedDeclaration: (node) => node.source && checkSource(node, node.source.value, !typeOnly(node)),
      ExportAllDeclaration: (node) => checkSource(node, node.source.value, node.exportKind !== 'type'),
      ImportExpression(node) {
        if (node.source.type === 'Literal') checkSource(node, node.source.value, true);
      },
      TSImportType: (node) => checkSource(node, node.argument?.literal?.value, false),
      MemberExpression(node) {
        if (typed && isHandle(node.object)) context.report({ node, messageId: 'call', data: { call: context.sourceCode.getText(node) } });
      },
      ObjectPattern(node) {
        if (typed && isHandle(node)) context.report({ node, messageId: 'call', data: { call: context.sourceCode.getText(node) } });
      },
    };
  },
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'test-results/**', 'playwright-report/**', '.data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  {
    // The back office's service worker runs in its own global scope.
    files: ['apps/web/public/sw.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    // The web store (React) runs in the browser, and its pages on the server too.
    files: ['apps/store/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Its bundle carries no back-office code, nor the contracts' schemas (zod): types only.
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: '@tourdesk/contracts', allowTypeImports: true, message: 'The store imports only types from the contracts (their schemas would pull zod into its bundle).' }],
          patterns: [{ regex: 'apps/web', message: 'The web store imports no back-office code.' }],
        },
      ],
    },
  },
  {
    // Features never import each other, nor the app: code flows shared -> features -> app.
    files: ['apps/web/src/features/*/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^\\.\\./(?!\\.\\.)', message: 'Features do not import each other; move shared code to src/shared.' },
            { regex: '^\\.\\./\\.\\./app/', message: 'Features do not import the app.' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/shared/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '/(features|app)/', message: 'Shared code does not import features or the app.' }] }],
    },
  },
  {
    // The orders module uses availability (slots, their locks, carts); availability never uses orders.
    files: ['apps/api/src/modules/availability/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '/orders/', message: 'availability does not import orders: orders depends on availability, one way.' }] }],
    },
  },
  {
    files: ['scripts/**', '**/build.mjs'],
    rules: { 'no-console': 'off' },
  },
  {
    // No import cycles (see noImportCycle above), in every app and package.
    files: CYCLE_ROOTS.map((root) => `${root}/**/*.{ts,tsx,mts}`),
    plugins: { tourdesk: { rules: { 'no-import-cycle': noImportCycle } } },
    rules: { 'tourdesk/no-import-cycle': 'error' },
  },
  {
    // Typed linting for module-layers, which knows a database handle by its type (see above).
    files: ['apps/api/src/modules/**/*.ts', 'apps/api/src/lib/**/*.ts'],
    ignores: ['**/*.test.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: repo } },
    plugins: { layers: { rules: { 'module-layers': moduleLayers } } },
    rules: { 'layers/module-layers': 'error' },
  },
);
