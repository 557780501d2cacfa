import type { NodeJSON } from '@quire/shared/content/json';
import type { Queryable } from '../../store/db';
import { readPageBody } from './model';
import { docAtRevision } from './revisions';

/** A page's body in a revision, in the content model's own node JSON: exact, so a client can restore it. */
export async function pageBodyAt(db: Queryable, revisionId: string, pageId: string): Promise<NodeJSON> {
  return readPageBody(await docAtRevision(db, revisionId), pageId);
}
