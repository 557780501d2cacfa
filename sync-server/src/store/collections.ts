import { type Role, keyBetween, newId } from '@quire/shared';
import { type Queryable, maybeOne, one } from './db';
import { type PageRequest, keysetPage } from './paginate';
import { lastPosition, storedDefaultLevel } from './tree';

export interface CollectionRow {
  id: string;
  seq: number;
  org_id: string;
  parent_id: string | null;
  title: string;
  description: string | null;
  default_level: Role | 'inherit' | 'none' | null;
  position: string;
  created_at: Date;
  updated_at: Date;
}

export function getCollection(db: Queryable, id: string) {
  return maybeOne<CollectionRow>(db, 'SELECT * FROM collections WHERE id = $1', [id]);
}

export function collectionsOfOrg(db: Queryable, orgId: string) {
  return db.query<CollectionRow>('SELECT * FROM collections WHERE org_id = $1', [orgId]);
}

export async function createCollection(db: Queryable, orgId: string, title: string, parentId: string | null, description?: string) {
  const position = keyBetween(await lastPosition(db, orgId, parentId), null);
  return one<CollectionRow>(
    db,
    'INSERT INTO collections (id, org_id, parent_id, title, description, position) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
    [newId(), orgId, parentId, title, description ?? null, position],
  );
}

export async function updateCollection(
  db: Queryable,
  id: string,
  patch: { title?: string; description?: string; defaultLevel?: Role | 'inherit' | null },
) {
  return one<CollectionRow>(
    db,
    `UPDATE collections SET
       title = COALESCE($2, title),
       description = CASE WHEN $3::boolean THEN $4 ELSE description END,
       default_level = CASE WHEN $5::boolean THEN $6 ELSE default_level END,
       updated_at = now()
     WHERE id = $1 RETURNING *`,
    [
      id,
      patch.title ?? null,
      patch.description !== undefined,
      patch.description ?? null,
      patch.defaultLevel !== undefined,
      patch.defaultLevel === undefined ? null : storedDefaultLevel(patch.defaultLevel),
    ],
  );
}

export function listCollections(db: Queryable, orgId: string, nested: boolean, visibleIds: string[] | undefined, page: PageRequest) {
  const params: unknown[] = [orgId];
  let where = 'WHERE c.org_id = $1';
  if (!nested) where += ' AND c.parent_id IS NULL';
  if (visibleIds) {
    params.push(visibleIds);
    where += ` AND c.id = ANY($${params.length})`;
  }
  return keysetPage<CollectionRow>(db, { columns: 'c.*', from: `FROM collections c ${where}`, params, seq: 'c.seq' }, page);
}

/** Ids of a collection and every collection below it. */
export async function collectionSubtree(db: Queryable, id: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `WITH RECURSIVE sub AS (SELECT id FROM collections WHERE id = $1
       UNION ALL SELECT c.id FROM collections c JOIN sub ON c.parent_id = sub.id)
     SELECT id FROM sub`,
    [id],
  );
  return rows.map((r) => r.id);
}

/**
 * Deletes a collection with its sub-collections. Spaces inside go to the trash (restorable
 * for the retention period) rather than vanish; restored, they land at the root, where
 * "in-collection" has no audience to mean.
 */
export async function trashCollectionTree(tx: Queryable, collectionId: string) {
  const ids = await collectionSubtree(tx, collectionId);
  await tx.query(
    `UPDATE spaces SET deleted_at = COALESCE(deleted_at, now()), parent_id = NULL,
       visibility = CASE WHEN visibility = 'in-collection' THEN 'private' ELSE visibility END
     WHERE parent_id = ANY($1)`,
    [ids],
  );
  await tx.query('DELETE FROM grants WHERE resource_id = ANY($1)', [ids]);
  await tx.query('DELETE FROM collections WHERE id = $1', [collectionId]);
}

/**
 * Moves a top-level collection, its sub-collections and their spaces to another
 * organization, last among its top-level items. Grants name users and teams of the old
 * organization; they mean nothing in the new one, so they go.
 */
export async function moveCollectionTreeToOrg(tx: Queryable, collectionId: string, targetOrgId: string) {
  const ids = await collectionSubtree(tx, collectionId);
  const position = keyBetween(await lastPosition(tx, targetOrgId, null), null);
  await tx.query('DELETE FROM grants WHERE resource_id = ANY($1) OR resource_id IN (SELECT id FROM spaces WHERE parent_id = ANY($1))', [
    ids,
  ]);
  await tx.query('UPDATE spaces SET org_id = $2, updated_at = now() WHERE parent_id = ANY($1)', [ids, targetOrgId]);
  await tx.query('UPDATE collections SET org_id = $2, updated_at = now() WHERE id = ANY($1)', [ids, targetOrgId]);
  await tx.query('UPDATE collections SET position = $2 WHERE id = $1', [collectionId, position]);
}
