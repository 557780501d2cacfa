import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/slowFirst';

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
    // A worker keeps the modules it loaded for the next file. Every file loads much the same
    // server (hundreds of modules); loading it again per file was a third of the suite's CPU.
    // Files share no state but what they create and close themselves.
    isolate: false,
    sequence: { sequencer: SlowFirstSequencer },
  },
});
