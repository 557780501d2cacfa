import type { UserSummary } from '../../common/ipc';
import { call } from '../bridge';

/** How long a space's member list is reused before it is asked for again. */
const FRESH_MS = 60_000;

const asked = new Map<string, { at: number; members: Promise<UserSummary[]> }>();

/**
 * The members of a space's organization, for `@`: asked of the LocalNode (which asks the
 * server and keeps the answer for offline use) at most once a minute per space.
 */
export function membersOf(spaceId: string): Promise<UserSummary[]> {
  const kept = asked.get(spaceId);
  if (kept && Date.now() - kept.at < FRESH_MS) return kept.members;
  const members = call('members.list', { spaceId })
    .then((r) => r.members)
    .catch(() => {
      asked.delete(spaceId);
      return [] as UserSummary[];
    });
  asked.set(spaceId, { at: Date.now(), members });
  return members;
}
