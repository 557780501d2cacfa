import type { Queryable } from './db';

/** The counters a Space carries; each feature that owns a table adds its count here. */
export interface SpaceCounts {
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
}

/** Counts for several spaces in one statement (the space read is on every request's path). */
export async function spaceCounts(db: Queryable, spaceIds: string[]): Promise<Map<string, SpaceCounts>> {
  const out = new Map<string, SpaceCounts>();
  if (!spaceIds.length) return out;
  const rows = await db.query<{ id: string; comments: number; total: number; open: number; draft: number }>(
    `SELECT s.id,
       (SELECT count(*)::int FROM comments c WHERE c.space_id = s.id AND c.change_request_id IS NULL AND c.status = 'open') AS comments,
       cr.total, cr.open, cr.draft
     FROM unnest($1::text[]) AS s(id)
     CROSS JOIN LATERAL (
       SELECT count(*)::int AS total, count(*) FILTER (WHERE status = 'open')::int AS open,
              count(*) FILTER (WHERE status = 'draft')::int AS draft
       FROM change_requests WHERE space_id = s.id
     ) cr`,
    [spaceIds],
  );
  for (const r of rows) {
    out.set(r.id, { comments: r.comments, changeRequests: r.total, changeRequestsOpen: r.open, changeRequestsDraft: r.draft });
  }
  return out;
}
