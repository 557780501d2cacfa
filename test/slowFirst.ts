import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that start real server processes, browsers or a minute of fault injection take
 * tens of seconds each. Started last, one of them keeps a worker busy while the other
 * idles; started first, the many short files fill in around them. Vitest orders by the
 * durations of the previous run when it has them, which a fresh checkout (CI) does not.
 */
const SLOW = [
  /\/test\/sync\//,
  /\/test\/foundation\//,
  /\/test\/integrations\//,
  /\/test\/security\//,
  /\/test\/desktop\//,
  /\/test\/sites\//,
  /\/cli\/admin\.test\.ts$/,
  /\/store\/(migrate|pglite)\.test\.ts$/,
  /\/core\/bootstrap\.test\.ts$/,
];

/**
 * The longest of them, longest first (a fresh clone's run, two cores): the last of these to
 * start decides when the run ends, so they start before the rest of the slow files.
 */
const LONGEST = [
  /\/test\/desktop\/browser\.test\.ts$/,
  /\/test\/desktop\/writing\.test\.ts$/,
  /\/test\/desktop\/review\.test\.ts$/,
  /\/test\/sites\/apiReference\.browser\.test\.ts$/,
  /\/test\/sites\/constructs\.browser\.test\.ts$/,
  /\/cli\/admin\.test\.ts$/,
];

/** 0… for the longest files in their order, then one rank for the other slow files, then the rest. */
function rank(spec: TestSpecification): number {
  const longest = LONGEST.findIndex((re) => re.test(spec.moduleId));
  if (longest >= 0) return longest;
  return SLOW.some((re) => re.test(spec.moduleId)) ? LONGEST.length : LONGEST.length + 1;
}

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // A stable sort: within a rank, the order of the durations vitest kept from the last run.
    return sorted
      .map((spec, i) => ({ spec, i, rank: rank(spec) }))
      .sort((a, b) => a.rank - b.rank || a.i - b.i)
      .map((x) => x.spec);
  }
}
