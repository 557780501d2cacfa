import type { File, Task } from '@vitest/runner';
import type { Reporter, Vitest } from 'vitest/node';

/**
 * A test file whose own hooks fail (its server does not start, a `beforeAll` throws) marks
 * its tests skipped. Stryker's Vitest runner looks for a failed suite only above a test, not
 * at the file, so it read such a run as passing and kept the mutant as survived although the
 * file failed. This marks the tests of a failed file failed with the file's error, as a plain
 * `vitest run` reports the file: the mutant counts as killed, and a file failing without one
 * stops the initial run instead of passing unnoticed.
 */
export default class FileFailures implements Reporter {
  private ctx?: Vitest;

  onInit(ctx: Vitest) {
    this.ctx = ctx;
  }

  onTestRunEnd() {
    for (const file of this.ctx?.state.getFiles() ?? []) failTestsOfFailedFile(file);
  }
}

function tests(task: Task): Task[] {
  return task.type === 'test' ? [task] : 'tasks' in task ? task.tasks.flatMap(tests) : [];
}

function failTestsOfFailedFile(file: File) {
  if (file.result?.state !== 'fail') return;
  const all = tests(file);
  if (all.some((t) => t.result?.state === 'fail')) return;
  for (const t of all) {
    t.mode = 'run';
    t.result = { ...t.result, state: 'fail', errors: file.result.errors };
  }
}
