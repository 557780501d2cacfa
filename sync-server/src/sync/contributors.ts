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

/**
 * Who edited each document live since its revision was last cut, in the order they first
 * edited: the revision cut when the edits go quiet is recorded as the first one's (a
 * revision has one author; writers editing the same minutes together are rare in one
 * quiet period, and the first is who started it).
 */
export class LiveEditors {
  private readonly byDoc = new Map<string, string[]>();

  note(docId: string, userIds: Iterable<string>) {
    let list = this.byDoc.get(docId);
    if (!list) this.byDoc.set(docId, (list = []));
    for (const id of userIds) if (!list.includes(id)) list.push(id);
  }

  /** The editors since the last cut, forgotten here: the cut about to run holds their edits. */
  take(docId: string): string[] {
    const list = this.byDoc.get(docId) ?? [];
    this.byDoc.delete(docId);
    return list;
  }
}
