import type { SyncRoom } from '@quire/shared/sync';
import type { Logger } from '../logger';
import { addContributor } from '../store/changeRequests';
import type { Db } from '../store/db';

/**
 * Whoever edits a change request live is one of its contributors, as with REST edits:
 * recorded once per user while the room is loaded, after the edit is stored and answered.
 */
export class LiveContributors {
  /** Users already recorded, per loaded room (forgotten with the room). */
  private recorded = new WeakMap<object, Set<string>>();

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {}

  /** Records `userIds` as contributors of the room's change request; nothing for a space's room. */
  async record(room: { readonly room: SyncRoom }, userIds: Iterable<string>) {
    const sr = room.room;
    if (sr.kind !== 'changeRequest') return;
    let known = this.recorded.get(room);
    if (!known) this.recorded.set(room, (known = new Set()));
    for (const userId of userIds) {
      if (known.has(userId)) continue;
      try {
        await addContributor(this.db, sr.changeRequestId, userId);
        known.add(userId);
      } catch (err) {
        // The edit is stored; a missing contributor row must not fail it.
        this.log.warn({ err, changeRequestId: sr.changeRequestId }, 'could not record a change request contributor');
      }
    }
  }
}
