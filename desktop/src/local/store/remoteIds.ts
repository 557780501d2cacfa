import type { Queryable } from './database';
import { maybeOne } from './database';
import { appendDocUpdateIn, deleteDoc, loadDoc, unsentCount } from './docs';

type Table = 'spaces' | 'change_requests' | 'comments';

/** Where rows point at a space, a change request or a comment, by its local id. */
const REFERENCES: Record<Table, { columns: [table: string, column: string][]; payloadKeys: string[]; docPrefix?: string }> = {
  spaces: {
    columns: [
      ['change_requests', 'space_id'],
      ['comments', 'space_id'],
    ],
    payloadKeys: ['spaceId'],
    docPrefix: 'space:',
  },
  change_requests: { columns: [['comments', 'change_request_id']], payloadKeys: ['changeRequestId'], docPrefix: 'cr:' },
  comments: { columns: [['comments', 'parent_id']], payloadKeys: ['commentId', 'replyId'] },
};

/**
 * Records the server id of a row created here, idempotently. A refresh from the server may
 * have brought the server's copy in first, as a row of its own (keyed by the remote id),
 * between the server's answer and this moment: that copy is folded into the local row, so
 * the two become one, and whatever pointed at the copy (comments, replies, queued changes,
 * edits made in its branch) points at the local row from now on.
 */
export async function adoptRemoteId(tx: Queryable, table: Table, localId: string, remoteId: string): Promise<void> {
  const twin = await maybeOne<{ id: string }>(tx, `SELECT id FROM ${table} WHERE remote_id = $1 AND id <> $2`, [remoteId, localId]);
  if (!twin) return;
  const refs = REFERENCES[table];
  for (const [refTable, column] of refs.columns) {
    await tx.query(`UPDATE ${refTable} SET ${column} = $2 WHERE ${column} = $1`, [twin.id, localId]);
  }
  for (const key of refs.payloadKeys) {
    await tx.query(`UPDATE outbox SET payload = jsonb_set(payload, $3, to_jsonb($2::text)) WHERE payload->>'${key}' = $1`, [
      twin.id,
      localId,
      `{${key}}`,
    ]);
  }
  if (refs.docPrefix) {
    const twinDoc = refs.docPrefix + twin.id;
    // Edits made in the copy's branch meanwhile are kept: the branch merges them like any other edit.
    if ((await unsentCount(tx, twinDoc)) > 0) {
      const stored = await loadDoc(tx, twinDoc);
      if (stored.update) await appendDocUpdateIn(tx, refs.docPrefix + localId, stored.update, true);
    }
    await deleteDoc(tx, twinDoc);
  }
  await tx.query(`DELETE FROM ${table} WHERE id = $1`, [twin.id]);
}
