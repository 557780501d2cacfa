import { ROLES, type Role } from '@quire/shared';
import { describe, expect, it } from 'vitest';
import { type GitAction, gitDecision, mayTriggerGitSync } from './git';

/** The answer, as a status: 200 allowed, else what the caller is told. */
const answer = (action: GitAction, role: Role | null, locked: boolean, standalone = false) => {
  const d = gitDecision(action, { role, locked, standalone });
  return d.allowed ? 200 : d.status;
};

describe('git policy', () => {
  it('role × action × state', () => {
    const table: Record<string, Record<string, number>> = {};
    for (const role of [null, ...ROLES]) {
      const row: Record<string, number> = {};
      for (const locked of [false, true]) {
        const state = locked ? 'locked' : 'live';
        row[`import ${state}`] = answer('import', role, locked);
        row[`import standalone ${state}`] = answer('import', role, locked, true);
        row[`export ${state}`] = answer('export', role, locked);
        row[`info ${state}`] = answer('info', role, locked);
      }
      table[role ?? 'none'] = row;
    }
    const denied = { 'import live': 403, 'import standalone live': 403, 'export live': 403 };
    const lockedDenied = { 'import locked': 403, 'import standalone locked': 403, 'export locked': 403 };
    const reader = { ...denied, ...lockedDenied, 'info live': 200, 'info locked': 200 };
    const writer = {
      'import live': 200,
      'import standalone live': 200,
      'export live': 200,
      'info live': 200,
      // main of a locked space takes no import; a change request still may
      'import locked': 409,
      'import standalone locked': 200,
      'export locked': 200,
      'info locked': 200,
    };
    const none = Object.fromEntries(Object.keys(writer).map((k) => [k, 404]));
    expect(table).toEqual({
      none,
      read: reader,
      comment: reader,
      edit: writer,
      review: writer,
      create: writer,
      admin: writer,
    });
  });

  it('the 403 names the role needed', () => {
    expect(gitDecision('export', { role: 'comment', locked: false })).toEqual({
      allowed: false,
      status: 403,
      message: 'This needs the edit role on the space.',
    });
  });

  it("a space's permissions.triggerGitSync says the same", () => {
    for (const role of [null, ...ROLES]) {
      expect(mayTriggerGitSync(role), String(role)).toBe(answer('import', role, false) === 200 && answer('export', role, false) === 200);
    }
  });
});
