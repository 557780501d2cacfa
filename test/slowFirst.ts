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

function slow(spec: TestSpecification): boolean {
  return SLOW.some((re) => re.test(spec.moduleId));
}

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter(slow), ...sorted.filter((f) => !slow(f))];
  }
}
