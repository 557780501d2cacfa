import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MUTATION_MODULES } from './modules';

/**
 * Runs StrykerJS on each named module (all when none is named), one after another, and
 * prints the share of mutants killed per module. Reports land in `reports/mutation/`.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const names = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = names.filter((n) => !MUTATION_MODULES[n]);
if (unknown.length) {
  console.error(`Unknown module: ${unknown.join(', ')}. Known: ${Object.keys(MUTATION_MODULES).join(', ')}.`);
  process.exit(2);
}
const chosen = names.length ? names : Object.keys(MUTATION_MODULES);
const rows: string[] = [];
for (const name of chosen) {
  const mod = MUTATION_MODULES[name]!;
  const tests = mod.tests.filter((f) => existsSync(join(ROOT, f)));
  const report = join(ROOT, 'reports/mutation', `${name}.json`);
  mkdirSync(dirname(report), { recursive: true });
  console.log(`\n== ${name}: ${mod.mutate.join(', ')} against ${tests.length} test files`);
  const run = spawnSync('npx', ['stryker', 'run', 'test/mutation/stryker.config.mjs', '--mutate', mod.mutate.join(',')], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, QUIRE_MUTATION_TESTS: tests.join(','), QUIRE_MUTATION_REPORT: report },
  });
  if (run.status !== 0 || !existsSync(report)) {
    rows.push(`| ${name} | failed to run | | |`);
    continue;
  }
  const { files } = JSON.parse(readFileSync(report, 'utf8')) as { files: Record<string, { mutants: { status: string }[] }> };
  const mutants = Object.values(files).flatMap((f) => f.mutants);
  const count = (s: string[]) => mutants.filter((m) => s.includes(m.status)).length;
  const killed = count(['Killed', 'Timeout']);
  const survived = count(['Survived', 'NoCoverage']);
  const score = killed + survived ? ((100 * killed) / (killed + survived)).toFixed(1) : '—';
  rows.push(`| ${name} | ${score}% | ${killed} | ${survived} |`);
}
console.log('\n| module | killed | killed mutants | survivors |\n|---|---|---|---|');
for (const r of rows) console.log(r);
