import { readFileSync } from 'node:fs';

/** Lists the surviving mutants of a report, one line each: where, which mutator, what it became. */
const report = process.argv[2];
if (!report) {
  console.error('usage: tsx test/mutation/survivors.ts reports/mutation/<module>.json');
  process.exit(2);
}
type Mutant = { status: string; mutatorName: string; replacement?: string; location: { start: { line: number; column: number } } };
const { files } = JSON.parse(readFileSync(report, 'utf8')) as { files: Record<string, { mutants: Mutant[] }> };
for (const [file, { mutants }] of Object.entries(files)) {
  for (const m of mutants.filter((x) => x.status === 'Survived' || x.status === 'NoCoverage')) {
    const replacement = (m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 100);
    console.log(`${file}:${m.location.start.line}:${m.location.start.column} ${m.status} ${m.mutatorName} → ${replacement}`);
  }
}
