import { randomBytes } from 'node:crypto';
import { type MergeRules, type Role, keyBetween, newId } from '@quire/shared';
import { type Queryable, maybeOne, one } from './db';
import { type PageRequest, keysetPage } from './paginate';
import { lastPosition, storedDefaultLevel } from './tree';

export interface SpaceRow {
  id: string;
  seq: number;
  org_id: string;
  parent_id: string | null;
  title: string;
  emoji: string | null;
  visibility: string;
  edit_mode: 'live' | 'locked';
  /** null: inherit; 'none': no default access (`defaultLevel: null` in the API) */
  default_level: Role | 'inherit' | 'none' | null;
  language: string | null;
  merge_rules: MergeRules;
  share_key: string;
  position: string;
  revision_id: string | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

/** How long a deleted space can be restored before it is purged. */
export const SPACE_RETENTION_DAYS = 7;

const ALIVE = `(deleted_at IS NULL)`;

/** A space that is not deleted (or, with `includeDeleted`, one still restorable). */
export function getSpace(db: Queryable, id: string, opts: { includeDeleted?: boolean } = {}) {
  return maybeOne<SpaceRow>(
    db,
    opts.includeDeleted
      ? `SELECT * FROM spaces WHERE id = $1 AND (deleted_at IS NULL OR deleted_at > now() - interval '${SPACE_RETENTION_DAYS} days')`
      : `SELECT * FROM spaces WHERE id = $1 AND ${ALIVE}`,
    [id],
  );
}

export function newShareKey(): string {
  return randomBytes(18).toString('base64url');
}

export async function createSpace(
  db: Queryable,
  orgId: string,
  fields: { title: string; emoji?: string | null; parentId?: string | null; language?: string | null },
): Promise<SpaceRow> {
  const parentId = fields.parentId ?? null;
  const position = keyBetween(await lastPosition(db, orgId, parentId), null);
  return one<SpaceRow>(
    db,
    `INSERT INTO spaces (id, org_id, parent_id, title, emoji, language, share_key, position)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
    [newId(), orgId, parentId, fields.title, fields.emoji ?? null, fields.language ?? null, newShareKey(), position],
  );
}

const COLUMNS: Record<string, string> = {
  title: 'title',
  emoji: 'emoji',
  editMode: 'edit_mode',
  defaultLevel: 'default_level',
  language: 'language',
  mergeRules: 'merge_rules',
  visibility: 'visibility',
};

export async function updateSpace(db: Queryable, id: string, patch: Record<string, unknown>): Promise<SpaceRow> {
  const sets: string[] = [];
  const params: unknown[] = [id];
  for (const [k, raw] of Object.entries(patch)) {
    const col = COLUMNS[k];
    if (!col || raw === undefined) continue;
    const v = k === 'defaultLevel' ? storedDefaultLevel(raw as Role | 'inherit' | null) : raw;
    params.push(col === 'merge_rules' ? JSON.stringify(v) : v);
    sets.push(`${col} = $${params.length}`);
  }
  sets.push('updated_at = now()');
  return one<SpaceRow>(db, `UPDATE spaces SET ${sets.join(', ')} WHERE id = $1 RETURNING *`, params);
}

export interface SpaceListFilter {
  parentId?: string;
  /** Restrict to these ids (callers who see only some spaces). */
  visibleIds?: string[];
  order?: 'asc' | 'desc';
}

export function listSpaces(db: Queryable, orgId: string, f: SpaceListFilter, page: PageRequest) {
  const params: unknown[] = [orgId];
  let where = `WHERE s.org_id = $1 AND s.deleted_at IS NULL`;
  if (f.parentId) {
    params.push(f.parentId);
    where += ` AND s.parent_id = $${params.length}`;
  }
  if (f.visibleIds) {
    params.push(f.visibleIds);
    where += ` AND s.id = ANY($${params.length})`;
  }
  return keysetPage<SpaceRow>(db, { columns: 's.*', from: `FROM spaces s ${where}`, params, seq: 's.seq', order: f.order }, page);
}

export async function softDeleteSpace(db: Queryable, id: string) {
  await db.query('UPDATE spaces SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL', [id]);
}

export async function restoreSpace(db: Queryable, id: string) {
  return one<SpaceRow>(db, 'UPDATE spaces SET deleted_at = NULL, updated_at = now() WHERE id = $1 RETURNING *', [id]);
}

/**
 * Permanently removes spaces deleted longer ago than the retention period, with what no
 * foreign key cascades to: grants and the Yjs documents of the space and its change
 * requests. Returns the ids removed; run it in a transaction.
 */
export async function purgeDeletedSpaces(db: Queryable): Promise<string[]> {
  const expired = (
    await db.query<{ id: string }>(
      `SELECT id FROM spaces WHERE deleted_at IS NOT NULL AND deleted_at <= now() - interval '${SPACE_RETENTION_DAYS} days' FOR UPDATE`,
    )
  ).map((r) => r.id);
  if (!expired.length) return [];
  await db.query(
    `DELETE FROM ydocs WHERE id IN (
       SELECT 'space:' || s FROM unnest($1::text[]) s
       UNION ALL SELECT 'cr:' || c.id FROM change_requests c WHERE c.space_id = ANY($1))`,
    [expired],
  );
  await db.query('DELETE FROM grants WHERE resource_id = ANY($1)', [expired]);
  await db.query('DELETE FROM spaces WHERE id = ANY($1)', [expired]);
  return expired;
}

/** A live sibling usable as a move anchor; a deleted space is not one. */
export async function siblingPosition(db: Queryable, kind: 'space' | 'collection', id: string) {
  return maybeOne<{ id: string; org_id: string; parent_id: string | null; position: string }>(
    db,
    kind === 'space'
      ? 'SELECT id, org_id, parent_id, position FROM spaces WHERE id = $1 AND deleted_at IS NULL'
      : 'SELECT id, org_id, parent_id, position FROM collections WHERE id = $1',
    [id],
  );
}

/**
 * The nearest sibling position strictly after / before `position` under the same parent.
 * Fractional-index keys order bytewise (as JavaScript compares them), so the SQL compares
 * them in the "C" collation whatever the database's default collation is.
 */
export async function neighbourPosition(
  db: Queryable,
  orgId: string,
  parentId: string | null,
  position: string,
  direction: 'after' | 'before',
  excludeId: string,
): Promise<string | null> {
  const cmp = direction === 'after' ? '>' : '<';
  const agg = direction === 'after' ? 'min' : 'max';
  const row = await maybeOne<{ p: string | null }>(
    db,
    `SELECT ${agg}(p COLLATE "C") AS p FROM (
       SELECT position AS p, id FROM spaces WHERE org_id = $1 AND parent_id IS NOT DISTINCT FROM $2 AND deleted_at IS NULL
       UNION ALL SELECT position, id FROM collections WHERE org_id = $1 AND parent_id IS NOT DISTINCT FROM $2) x
     WHERE p COLLATE "C" ${cmp} $3 AND id <> $4`,
    [orgId, parentId, position, excludeId],
  );
  return row?.p ?? null;
}

export async function setPlacement(db: Queryable, kind: 'space' | 'collection', id: string, parentId: string | null, position: string) {
  const table = kind === 'space' ? 'spaces' : 'collections';
  await db.query(`UPDATE ${table} SET parent_id = $2, position = $3, updated_at = now() WHERE id = $1`, [id, parentId, position]);
}

/** Gives a copy the access and workflow settings of its original. */
export async function copySpaceSettings(db: Queryable, copyId: string, from: SpaceRow) {
  await db.query('UPDATE spaces SET visibility = $2, default_level = $3, merge_rules = $4, edit_mode = $5 WHERE id = $1', [
    copyId,
    from.visibility,
    from.default_level,
    JSON.stringify(from.merge_rules),
    from.edit_mode,
  ]);
}

/** Moves a space to the root of another organization. */
export async function moveSpaceToOrg(db: Queryable, spaceId: string, orgId: string, position: string) {
  await one(db, 'UPDATE spaces SET org_id = $2, parent_id = NULL, position = $3, updated_at = now() WHERE id = $1 RETURNING id', [
    spaceId,
    orgId,
    position,
  ]);
}

/** What decides access to each live space of an organization. */
export function placedSpaces(db: Queryable, orgId: string) {
  return db.query<{ id: string; parent_id: string | null; default_level: Role | null }>(
    'SELECT id, parent_id, default_level FROM spaces WHERE org_id = $1 AND deleted_at IS NULL',
    [orgId],
  );
}

/** What decides access to each live space directly in a collection. */
export function placedSpacesIn(db: Queryable, collectionId: string) {
  return db.query<{ id: string; parent_id: string | null; default_level: Role | null }>(
    'SELECT id, parent_id, default_level FROM spaces WHERE parent_id = $1 AND deleted_at IS NULL',
    [collectionId],
  );
}

/** Rows of the given spaces, deleted or not, in no particular order. */
export function spacesById(db: Queryable, ids: string[]) {
  return ids.length ? db.query<SpaceRow>('SELECT * FROM spaces WHERE id = ANY($1)', [ids]) : Promise.resolve([]);
}
