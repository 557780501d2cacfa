import { defineConfig } from 'vitest/config';
import FileFailures from './fileFailures';

/** The test files of the modules under mutation, named by the runner through the environment. */
const include = (process.env.QUIRE_MUTATION_TESTS ?? '').split(',').filter(Boolean);

export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include,
    globalSetup: ['./test/globalSetup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', new FileFailures()],
  },
});
