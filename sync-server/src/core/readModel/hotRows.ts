import type { Db } from '../../store/db';
import { type OrgRow, getOrg } from '../../store/organizations';
import { type SpaceCounts, spaceCounts } from '../../store/spaceCounts';
import { type SpaceRow, getSpace } from '../../store/spaces';
import { readModelOf, tags } from './readModel';

/*
 * Rows every request of a resource reads, from the read model when they are there. Kept
 * rows are shared between requests: callers never change them.
 */

/**
 * A space that is not deleted. Deleted spaces are read from the database each time:
 * whether they still show depends on the clock (the retention period).
 */
export async function spaceRow(db: Db, id: string, opts: { includeDeleted?: boolean } = {}): Promise<SpaceRow | undefined> {
  const alive = await readModelOf(db).through(`space:${id}`, async () => {
    const row = await getSpace(db, id);
    return row && { value: row, tags: [tags.space(id)] };
  });
  if (alive || !opts.includeDeleted) return alive;
  return getSpace(db, id, opts);
}

export function orgRow(db: Db, id: string): Promise<OrgRow | undefined> {
  return readModelOf(db).through(`org:${id}`, async () => {
    const row = await getOrg(db, id);
    return row && { value: row, tags: [tags.org(id)] };
  });
}

/** A space's counters (comments, change requests). */
export async function spaceCountsOf(db: Db, id: string): Promise<SpaceCounts> {
  const load = async () => (await spaceCounts(db, [id])).get(id) as SpaceCounts;
  return (await readModelOf(db).through(`counts:${id}`, async () => ({ value: await load(), tags: [tags.space(id)] }))) ?? load();
}
