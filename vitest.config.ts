import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/src/**/*.test.ts', 'sync-server/src/**/*.test.ts', 'desktop/src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['./test/globalSetup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: a couple of workers, each with its own database per file.
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
  },
});
