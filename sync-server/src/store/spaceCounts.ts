import { changeRequestCountsBySpace } from './changeRequests';
import { openSpaceCommentCounts } from './comments';
import type { Queryable } from './db';

/** The counters a Space carries; each feature that owns a table adds its count here. */
export interface SpaceCounts {
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
}

/** Counts for several spaces in one round trip per counted table. */
export async function spaceCounts(db: Queryable, spaceIds: string[]): Promise<Map<string, SpaceCounts>> {
  const out = new Map<string, SpaceCounts>();
  for (const id of spaceIds) out.set(id, { comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 });
  const crs = await changeRequestCountsBySpace(db, spaceIds);
  for (const [id, n] of crs) {
    const c = out.get(id);
    if (c) Object.assign(c, { changeRequests: n.total, changeRequestsOpen: n.open, changeRequestsDraft: n.draft });
  }
  for (const [id, n] of await openSpaceCommentCounts(db, spaceIds)) {
    const c = out.get(id);
    if (c) c.comments = n;
  }
  return out;
}
