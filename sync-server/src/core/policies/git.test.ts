import { ROLES, type Role } from '@quire/shared';
import { describe, expect, it } from 'vitest';
import { type GitAction, authorizeGit, gitDecision, mayTriggerGitSync } from './git';

/** The answer: `ok` when allowed, else the kind of refusal the caller is told. */
const answer = (action: GitAction, role: Role | null, locked: boolean, standalone = false) => {
  const d = gitDecision(action, { role, locked, standalone });
  return d.allowed ? 'ok' : d.kind;
};

describe('git policy', () => {
  it('role × action × state', () => {
    const table: Record<string, Record<string, string>> = {};
    for (const role of [null, ...ROLES]) {
      const row: Record<string, string> = {};
      for (const locked of [false, true]) {
        const state = locked ? 'locked' : 'live';
        row[`import ${state}`] = answer('import', role, locked);
        row[`import standalone ${state}`] = answer('import', role, locked, true);
        row[`export ${state}`] = answer('export', role, locked);
        row[`info ${state}`] = answer('info', role, locked);
      }
      table[role ?? 'none'] = row;
    }
    const denied = { 'import live': 'forbidden', 'import standalone live': 'forbidden', 'export live': 'forbidden' };
    const lockedDenied = { 'import locked': 'forbidden', 'import standalone locked': 'forbidden', 'export locked': 'forbidden' };
    const reader = { ...denied, ...lockedDenied, 'info live': 'ok', 'info locked': 'ok' };
    const writer = {
      'import live': 'ok',
      'import standalone live': 'ok',
      'export live': 'ok',
      'info live': 'ok',
      // main of a locked space takes no import; a change request still may
      'import locked': 'conflict',
      'import standalone locked': 'ok',
      'export locked': 'ok',
      'info locked': 'ok',
    };
    const none = Object.fromEntries(Object.keys(writer).map((k) => [k, 'not_found']));
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

  it('a refusal names the role needed', () => {
    expect(gitDecision('export', { role: 'comment', locked: false })).toEqual({
      allowed: false,
      kind: 'forbidden',
      message: 'This needs the edit role on the space.',
    });
  });

  it("a space's permissions.triggerGitSync says the same", () => {
    for (const role of [null, ...ROLES]) {
      expect(mayTriggerGitSync(role), String(role)).toBe(answer('import', role, false) === 'ok' && answer('export', role, false) === 'ok');
    }
  });

  it('refuses with the domain error a caller is answered', () => {
    expect(gitDecision('info', { role: null, locked: false })).toEqual({
      allowed: false,
      kind: 'not_found',
      message: 'No matching space found.',
    });
    expect(() => authorizeGit('info', { role: null, locked: false })).toThrow(
      expect.objectContaining({ kind: 'not_found', message: 'No matching space found.' }),
    );
    expect(() => authorizeGit('export', { role: 'read', locked: false })).toThrow(
      expect.objectContaining({ kind: 'forbidden', message: 'This needs the edit role on the space.' }),
    );
    expect(() => authorizeGit('import', { role: 'edit', locked: true })).toThrow(
      expect.objectContaining({ kind: 'conflict', message: expect.stringMatching(/^The space is locked/) }),
    );
    expect(() => authorizeGit('import', { role: 'edit', locked: true, standalone: true })).not.toThrow();
  });
});
