import * as Y from 'yjs';
import { branchDocId } from '../core/content/branches';
import { cutRevision } from '../core/content/revisions';
import type { Db } from '../store/db';
import { appendUpdate, loadYDoc } from '../store/ydocs';

/**
 * Test helper: edits a branch as a live client would (a Y.Doc replica whose updates go
 * to the branch's log), then cuts the revision the sync endpoint would cut once edits go
 * quiet. `edit` uses the content model on the replica.
 */
export async function editLive<T>(
  db: Db,
  branch: { spaceId: string; changeRequestId?: string },
  edit: (doc: Y.Doc) => T,
  cut = true,
): Promise<T> {
  const docId = branchDocId(branch);
  const { doc } = await loadYDoc(db, docId);
  const updates: Uint8Array[] = [];
  doc.on('update', (u: Uint8Array) => updates.push(u));
  const result = edit(doc);
  for (const u of updates) await appendUpdate(db, docId, u);
  doc.destroy();
  if (cut) await cutRevision(db, docId);
  return result;
}
