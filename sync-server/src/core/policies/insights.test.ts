import { ROLES, type Role } from '@quire/shared';
import { describe, expect, it } from 'vitest';
import { type Decision, type InsightsAction, insightsDecision } from './insights';

/** Who may read and write a site's insights, by standing in the site's organization. */
const TABLE: { standing: string; isMember: boolean; role: Role | null; read: Decision; write: Decision }[] = [
  { standing: 'admin', isMember: true, role: 'admin', read: 'allow', write: 'allow' },
  { standing: 'create', isMember: true, role: 'create', read: 'allow', write: 'allow' },
  { standing: 'review', isMember: true, role: 'review', read: 'allow', write: 'allow' },
  { standing: 'edit', isMember: true, role: 'edit', read: 'allow', write: 'allow' },
  { standing: 'comment', isMember: true, role: 'comment', read: 'forbidden', write: 'forbidden' },
  { standing: 'read', isMember: true, role: 'read', read: 'forbidden', write: 'forbidden' },
  { standing: 'guest', isMember: true, role: null, read: 'forbidden', write: 'forbidden' },
  { standing: 'outside the organization', isMember: false, role: null, read: 'not-found', write: 'not-found' },
  // A disabled member or one kept out by SSO is not a member: told nothing, whatever the role.
  { standing: 'disabled admin', isMember: false, role: 'admin', read: 'not-found', write: 'not-found' },
];

describe('insights policy', () => {
  it('covers every role', () => {
    for (const role of ROLES) expect(TABLE.some((r) => r.role === role && r.isMember)).toBe(true);
  });

  for (const row of TABLE)
    for (const action of ['read', 'write'] as InsightsAction[])
      it(`${row.standing} → ${action}: ${row[action]}`, () => {
        expect(insightsDecision({ isMember: row.isMember, orgRole: row.role }, action)).toBe(row[action]);
      });
});
