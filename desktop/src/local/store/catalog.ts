import type { Queryable } from './database';
import { maybeOne } from './database';
import { adoptRemoteId } from './remoteIds';

export type SpaceSyncState = 'local' | 'publishing' | 'remote';

export interface OrgRow {
  id: string;
  title: string;
}

export interface CollectionRow {
  id: string;
  orgId: string;
  parentId: string | null;
  title: string;
}

export interface SpaceRow {
  id: string;
  remoteId: string | null;
  orgId: string | null;
  collectionId: string | null;
  title: string;
  emoji: string | null;
  syncState: SpaceSyncState;
}

interface RawSpace {
  id: string;
  remote_id: string | null;
  org_id: string | null;
  collection_id: string | null;
  title: string;
  emoji: string | null;
  sync_state: SpaceSyncState;
}

const toSpace = (r: RawSpace): SpaceRow => ({
  id: r.id,
  remoteId: r.remote_id,
  orgId: r.org_id,
  collectionId: r.collection_id,
  title: r.title,
  emoji: r.emoji,
  syncState: r.sync_state,
});

export async function listOrgs(db: Queryable): Promise<OrgRow[]> {
  return db.query<OrgRow>('SELECT id, title FROM organizations ORDER BY position, title');
}

export async function listCollections(db: Queryable): Promise<CollectionRow[]> {
  return db.query<CollectionRow>('SELECT id, org_id AS "orgId", parent_id AS "parentId", title FROM collections ORDER BY position, title');
}

export async function listSpaces(db: Queryable): Promise<SpaceRow[]> {
  const rows = await db.query<RawSpace>('SELECT * FROM spaces ORDER BY position, created_at, title');
  return rows.map(toSpace);
}

export async function getSpace(db: Queryable, id: string): Promise<SpaceRow | undefined> {
  const row = await maybeOne<RawSpace>(db, 'SELECT * FROM spaces WHERE id = $1', [id]);
  return row && toSpace(row);
}

export async function spaceByRemoteId(db: Queryable, remoteId: string): Promise<SpaceRow | undefined> {
  const row = await maybeOne<RawSpace>(db, 'SELECT * FROM spaces WHERE remote_id = $1', [remoteId]);
  return row && toSpace(row);
}

export async function insertLocalSpace(
  db: Queryable,
  space: { id: string; title: string; emoji: string | null; orgId: string | null; syncState: SpaceSyncState },
): Promise<void> {
  await db.query('INSERT INTO spaces (id, title, emoji, org_id, sync_state, position) VALUES ($1, $2, $3, $4, $5, 1000000)', [
    space.id,
    space.title,
    space.emoji,
    space.orgId,
    space.syncState,
  ]);
}

export async function updateSpaceLocal(db: Queryable, id: string, patch: { title?: string; emoji?: string | null }): Promise<void> {
  if (patch.title !== undefined) await db.query('UPDATE spaces SET title = $2 WHERE id = $1', [id, patch.title]);
  if (patch.emoji !== undefined) await db.query('UPDATE spaces SET emoji = $2 WHERE id = $1', [id, patch.emoji]);
}

export async function setSpacePublishing(db: Queryable, id: string, orgId: string): Promise<void> {
  await db.query("UPDATE spaces SET sync_state = 'publishing', org_id = $2 WHERE id = $1", [id, orgId]);
}

export async function setSpaceRemote(db: Queryable, id: string, remoteId: string, orgId: string): Promise<void> {
  await adoptRemoteId(db, 'spaces', id, remoteId);
  await db.query("UPDATE spaces SET sync_state = 'remote', remote_id = $2, org_id = $3 WHERE id = $1", [id, remoteId, orgId]);
}

export async function deleteSpaceRow(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM spaces WHERE id = $1', [id]);
}

/**
 * Replaces what the server told us about organizations, collections and spaces. Spaces
 * that exist only here (local, or waiting to be published) are left alone; a server space
 * that disappeared from the listing is dropped from the sidebar, its content stays on disk.
 */
export async function replaceCatalog(
  db: Queryable,
  catalog: {
    orgs: { id: string; title: string }[];
    collections: { id: string; orgId: string; parentId: string | null; title: string }[];
    spaces: { id: string; orgId: string; collectionId: string | null; title: string; emoji: string | null }[];
  },
): Promise<void> {
  await db.query('DELETE FROM organizations');
  for (const [i, o] of catalog.orgs.entries()) {
    await db.query('INSERT INTO organizations (id, title, position) VALUES ($1, $2, $3)', [o.id, o.title, i]);
  }
  await db.query('DELETE FROM collections');
  for (const [i, c] of catalog.collections.entries()) {
    await db.query('INSERT INTO collections (id, org_id, parent_id, title, position) VALUES ($1, $2, $3, $4, $5)', [
      c.id,
      c.orgId,
      c.parentId,
      c.title,
      i,
    ]);
  }
  const remoteIds = catalog.spaces.map((s) => s.id);
  await db.query("DELETE FROM spaces WHERE sync_state = 'remote' AND NOT (remote_id = ANY($1::text[]))", [remoteIds]);
  for (const [i, s] of catalog.spaces.entries()) {
    const existing = await spaceByRemoteId(db, s.id);
    if (existing) {
      await db.query('UPDATE spaces SET org_id = $2, collection_id = $3, title = $4, emoji = $5, position = $6 WHERE id = $1', [
        existing.id,
        s.orgId,
        s.collectionId,
        s.title,
        s.emoji,
        i,
      ]);
    } else {
      await db.query(
        "INSERT INTO spaces (id, remote_id, org_id, collection_id, title, emoji, position, sync_state) VALUES ($1, $1, $2, $3, $4, $5, $6, 'remote')",
        [s.id, s.orgId, s.collectionId, s.title, s.emoji, i],
      );
    }
  }
}

export async function getMeta<T>(db: Queryable, key: string): Promise<T | undefined> {
  const row = await maybeOne<{ value: T }>(db, 'SELECT value FROM meta WHERE key = $1', [key]);
  return row?.value;
}

export async function setMeta(db: Queryable, key: string, value: unknown): Promise<void> {
  await db.query('INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value', [
    key,
    JSON.stringify(value),
  ]);
}

export async function deleteMeta(db: Queryable, key: string): Promise<void> {
  await db.query('DELETE FROM meta WHERE key = $1', [key]);
}
