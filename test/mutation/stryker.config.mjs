// @ts-check
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'test/mutation/vitest.config.ts', related: false },
  coverageAnalysis: 'perTest',
  reporters: ['clear-text', 'json', 'progress'],
  jsonReporter: { fileName: process.env.QUIRE_MUTATION_REPORT ?? 'reports/mutation/mutation.json' },
  // Two by default; QUIRE_MUTATION_CONCURRENCY=1 leaves a core to others on a shared machine.
  concurrency: Number(process.env.QUIRE_MUTATION_CONCURRENCY ?? 2),
  timeoutMS: 60_000,
  ignorePatterns: ['data', '.test-data', 'reports', 'desktop/dist', 'test-artifacts', '**/*.tar', '.stryker-tmp', '**/.test-bundle'],
  // The sandbox needs no tsconfig rewrite (vitest transpiles; relative paths stay valid), and
  // Stryker's rewrite relies on the JavaScript API that TypeScript 7 no longer ships.
  tsconfigFile: 'test/mutation/none.json',
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
