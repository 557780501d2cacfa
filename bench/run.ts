/**
 * `npm run bench`: every benchmark, each printing its figures next to a baseline measured
 * in the same run (ratios, never absolute thresholds). `npm run bench -- api sync` runs a
 * subset.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

const SUITES: { name: string; file: string; fn: string }[] = [
  { name: 'api', file: 'api.ts', fn: 'runApiBench' },
  { name: 'content', file: 'content.ts', fn: 'runContentBench' },
  { name: 'sync', file: 'sync.ts', fn: 'runSyncBench' },
  { name: 'sites', file: 'sites.ts', fn: 'runSitesBench' },
  { name: 'pdf', file: 'pdf.ts', fn: 'runPdfBench' },
  { name: 'desktop', file: 'desktop.ts', fn: 'runDesktopBench' },
  { name: 'integrations', file: 'integrations.ts', fn: 'runIntegrationsBench' },
  { name: 'capacity', file: 'capacity.ts', fn: 'runCapacityBench' },
  { name: 'insights', file: 'insights.ts', fn: 'runInsightsBench' },
  { name: 'git', file: 'git.ts', fn: 'runGitBench' },
];

const wanted = process.argv.slice(2);
let failed = false;
for (const suite of SUITES) {
  if (wanted.length && !wanted.includes(suite.name)) continue;
  const path = join(HERE, suite.file);
  if (!existsSync(path)) continue;
  console.log(`\n=== ${suite.name} ===`);
  const started = Date.now();
  try {
    const mod = (await import(path)) as Record<string, () => Promise<void>>;
    await mod[suite.fn]?.();
  } catch (err) {
    failed = true;
    console.error(`${suite.name} benchmark failed:`, err);
  }
  console.log(`(${suite.name}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
process.exit(failed ? 1 : 0);
