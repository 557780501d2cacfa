/**
 * The layering of the code, checked by `npm run lint` (dependency-cruiser). One rule per
 * boundary DESIGN.md draws; no exceptions are listed here: code that breaks a rule moves.
 */
module.exports = {
  forbidden: [
    {
      name: 'core-not-http-or-sites',
      comment: 'Domain services (core/) know nothing of HTTP routes, MCP, the site renderer or what requests carry (web/).',
      severity: 'error',
      from: { path: '^sync-server/src/core/' },
      to: { path: '^sync-server/src/(http|sites|web|mcp)/' },
    },
    {
      name: 'store-only-sql',
      comment:
        'store/ is SQL and the database adapters: it gets the settings it needs, never core, http, the server config or anything above it.',
      severity: 'error',
      from: { path: '^sync-server/src/store/' },
      to: { path: '^sync-server/src/(core|http|sites|sync|cli|web|mcp)/|^sync-server/src/(config|server|main)\\.ts$' },
    },
    {
      name: 'sites-not-http',
      comment:
        'The published sites and the /v1 API are two front ends of core/: what both need (the request environment, the base URL) lives in web/, below both.',
      severity: 'error',
      from: { path: '^sync-server/src/sites/' },
      to: { path: '^sync-server/src/http/' },
    },
    {
      name: 'mcp-not-http',
      comment:
        'MCP (mcp/) is a front of its own: its tools call the core/ commands and queries the REST routes call, and what sites/ shows a visitor, never the REST front. The REST front only mounts /v1/mcp behind its authentication (http/mcp.ts). lint/thin-http.yml (fronts-not-http) also refuses the type re-exports this rule cannot see.',
      severity: 'error',
      from: { path: '^sync-server/src/mcp/' },
      to: { path: '^sync-server/src/http/' },
    },
    {
      name: 'web-below-the-fronts',
      comment: 'web/ serves every front (REST, MCP, sites), so it imports none of them.',
      severity: 'error',
      from: { path: '^sync-server/src/web/' },
      to: { path: '^sync-server/src/(http|sites|mcp)/' },
    },
    {
      name: 'cli-through-core',
      comment:
        'The admin command line does what it does through core/ functions, as the API does; it never reaches store/ itself (its tests may, to check what it wrote).',
      severity: 'error',
      from: { path: '^sync-server/src/cli/', pathNot: '\\.test\\.ts$' },
      to: { path: '^sync-server/src/store/' },
    },
    {
      name: 'http-without-store',
      comment:
        "HTTP handlers parse, call one core/ command or query, present what it answered: what is read or written, and who may, goes through core/, which calls store/. http/ imports no module of store/, types included (its tests may, to set up and check what was written), and never a database driver. dependency-cruiser reads type-only imports as imports here (see no-circular); lint/thin-http.yml (http-names-no-store) also refuses the `export type { X } from` re-exports and `import('…')` types it cannot see.",
      severity: 'error',
      from: { path: '^sync-server/src/http/', pathNot: '\\.test\\.ts$' },
      to: { path: '^sync-server/src/store/|node_modules/(pg|pg-pool|@electric-sql/pglite)/' },
    },
    {
      name: 'statuses-only-at-the-fronts',
      comment:
        'Below the fronts, errors are domain errors (@quire/shared/domainErrors: not found, forbidden, invalid…); only the REST front turns them into statuses and headers (http/errorStatus.ts).',
      severity: 'error',
      from: { path: '^sync-server/src/', pathNot: '^sync-server/src/(http/|server\\.ts$)' },
      to: { path: '^sync-server/src/http/errorStatus\\.ts$' },
    },
    {
      name: 'who-may-only-in-policies',
      comment:
        "Who may do what is decided by the policies in core/policies/ (one per resource, tested as tables) and nowhere else: ranking roles (core/access/roles.ts) is theirs and the effective-role function's (core/access/orgAccess.ts, loaded by core/access/callerAccess.ts).",
      severity: 'error',
      from: {
        path: '^sync-server/src/',
        pathNot: '^sync-server/src/core/(policies/|access/callerAccess\\.ts$|access/orgAccess\\.ts$)|\\.test\\.ts$',
      },
      to: { path: '^sync-server/src/core/access/roles\\.ts$' },
    },
    {
      name: 'no-circular',
      comment:
        "No module reaches itself through its imports, type-only imports included: a cycle makes the order of loading decide what a module sees, and two modules that need each other are one. Break one by moving what both need into a module of its own. What is seen: dependency-cruiser reads type-only imports through the TypeScript compiler API only, for TypeScript before 7, and this repository has 7, so tsPreCompilationDeps below changes nothing; the sources reach its JavaScript parser untranspiled, whose forgiving mode still reads `import type`, `import { type X }`, `export { type X } from` and `import('…')` types as imports, so cycles through them are found. It misses `export type { X } from` and `export type * from` re-exports: a cycle closed only by one of those goes unseen.",
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'shared-stands-alone',
      comment: 'shared/ is imported by the server and the desktop app; it imports neither.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^(sync-server|desktop)/' },
    },
    {
      name: 'renderer-without-localnode-or-database',
      comment: 'The renderer reaches the LocalNode through the typed bridge only, and never a database.',
      severity: 'error',
      from: { path: '^desktop/src/renderer/' },
      to: { path: '^desktop/src/local/|node_modules/(@electric-sql/pglite|pg)/' },
    },
    {
      name: 'test-helpers-only-in-tests',
      comment: 'The testing folder serves tests and benchmarks; the product never imports it.',
      severity: 'error',
      from: { path: '^(sync-server|desktop|shared)/src/', pathNot: '(\\.test\\.tsx?$|/testing/|/test/)' },
      to: { path: '^sync-server/src/testing/' },
    },
    {
      name: 'server-and-desktop-apart',
      comment: 'The server and the desktop app talk over the network only.',
      severity: 'error',
      from: { path: '^sync-server/' },
      to: { path: '^desktop/' },
    },
    {
      name: 'desktop-and-server-apart',
      severity: 'error',
      from: { path: '^desktop/' },
      to: { path: '^sync-server/', pathNot: '^sync-server/src/testing/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/|\\.test-data/' },
    // Counts type-only imports where the TypeScript compiler API is there; inert under TypeScript 7 (see no-circular).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
