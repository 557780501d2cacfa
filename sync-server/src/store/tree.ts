import type { Role } from '@quire/shared';
import { type Queryable, maybeOne } from './db';

// What spaces and collections share as the two kinds of node of one tree.

/**
 * The greatest sibling position under a parent (spaces and collections share one order),
 * compared bytewise like the fractional-index keys themselves.
 */
export async function lastPosition(db: Queryable, orgId: string, parentId: string | null): Promise<string | null> {
  const row = await maybeOne<{ p: string | null }>(
    db,
    `SELECT max(p COLLATE "C") AS p FROM (
       SELECT position AS p FROM spaces WHERE org_id = $1 AND parent_id IS NOT DISTINCT FROM $2 AND deleted_at IS NULL
       UNION ALL SELECT position FROM collections WHERE org_id = $1 AND parent_id IS NOT DISTINCT FROM $2) x`,
    [orgId, parentId],
  );
  return row?.p ?? null;
}

/** `defaultLevel` as stored: 'inherit' is the absence of a level, null (no default access) is 'none'. */
export function storedDefaultLevel(level: Role | 'inherit' | null): Role | 'none' | null {
  if (level === 'inherit') return null;
  return level === null ? 'none' : level;
}
