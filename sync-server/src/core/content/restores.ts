import type * as Y from 'yjs';
import type { Queryable } from '../../store/db';
import { membersAmong } from '../../store/members';
import { getRevisionHead } from '../../store/revisions';
import type { Branch } from './branches';
import type { PageEntry } from './materialize';
import { readPageRestore } from './model';

/** Who restored which revisions of the space in the edits a cut holds. */
export interface RestoreInCut {
  by: string;
  revisions: string[];
}

/**
 * A cut whose edits restored pages from their history (a writer's client marks the page
 * in the same transaction as the restored title and body) is recorded as a `restore`: by
 * the writer who restored, with the restored revisions as parents besides the head. A mark
 * is believed only for a page the cut really changed, a revision of this space, and a
 * member of its organization; anything else reads as plain edits.
 */
export async function restoreInCut(
  tx: Queryable,
  branch: Branch,
  orgId: string,
  doc: Y.Doc,
  restored: ReadonlySet<string>,
  pageChanges: ReadonlyMap<string, PageEntry | null>,
): Promise<RestoreInCut | undefined> {
  let by: string | undefined;
  const revisions: string[] = [];
  for (const pageId of restored) {
    if (!pageChanges.get(pageId)) continue;
    const mark = readPageRestore(doc, pageId);
    if (!mark || revisions.includes(mark.revision)) continue;
    const head = await getRevisionHead(tx, mark.revision);
    if (head?.space_id !== branch.spaceId) continue;
    if ((await membersAmong(tx, orgId, [mark.by])).length === 0) continue;
    by ??= mark.by;
    revisions.push(mark.revision);
  }
  return by ? { by, revisions } : undefined;
}
