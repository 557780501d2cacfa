import type { NodeJSON } from '@quire/shared/content/json';
import { notFound } from '@quire/shared/domainErrors';
import type { Queryable } from '../../store/db';
import type { Page, PageRequest } from '../../store/paginate';
import { type PageChangeRow, type PageRevisionRow, listPageRevisions, pageHasHistory, pagesOfRevisions } from '../../store/revisionPages';
import { type RevisionHead, getRevisionHead } from '../../store/revisions';
import type { SpaceRow } from '../../store/spaces';
import type { Materialized, PageEntry } from './materialize';
import { readPageBody } from './model';
import { readBody } from './read';
import { contentAtRevision, docAtRevision, revisionState } from './revisions';

/** A page's body in a revision, in the content model's own node JSON: exact, so a client can restore it. */
export async function pageBodyAt(db: Queryable, revisionId: string, pageId: string): Promise<NodeJSON> {
  return readPageBody(await docAtRevision(db, revisionId), pageId);
}

/**
 * The revisions of a space's main content that changed a page, newest first. A page removed
 * since is still known while it has history; one never seen is 404.
 */
export async function pageRevisionsOf(
  db: Queryable,
  space: SpaceRow,
  pageId: string,
  page: PageRequest,
): Promise<Page<PageRevisionRow & { pages: PageChangeRow[] }>> {
  const current = space.revision_id ? (await contentAtRevision(db, space.revision_id)).pages[pageId] : undefined;
  if (!current && !(await pageHasHistory(db, space.id, pageId))) throw notFound('page');
  const listed = await listPageRevisions(db, space.id, pageId, page);
  const touched = await pagesOfRevisions(
    db,
    space.id,
    listed.rows.map((r) => r.revision_id),
  );
  return { ...listed, rows: listed.rows.map((r) => ({ ...r, pages: touched.get(r.revision_id) ?? [] })) };
}

/** A page as it was in a revision of the space, with its body in the format asked for. */
export interface RevisionPage {
  head: RevisionHead;
  content: Materialized;
  entry: PageEntry;
  /** `format=body`: the content model's own node JSON. */
  body?: NodeJSON;
  /** `format=document` or `markdown`: the body read in that format. */
  read?: unknown;
}

/** A page as it was in a revision; 404 for a revision of another space or a page it does not hold. */
export async function revisionPageOf(
  db: Queryable,
  space: SpaceRow,
  revisionId: string,
  pageId: string,
  format: 'document' | 'markdown' | 'body',
): Promise<RevisionPage> {
  const head = await getRevisionHead(db, revisionId);
  if (!head || head.space_id !== space.id) throw notFound('revision');
  const content = await contentAtRevision(db, head.id);
  const entry = content.pages[pageId];
  if (!entry) throw notFound('page');
  if (format === 'body') return { head, content, entry, body: await pageBodyAt(db, head.id, pageId) };
  return { head, content, entry, read: await readBody(db, head.id, pageId, { format, evaluated: false, refs: 'stable' }) };
}

/**
 * The whole Yjs state of a revision of a space's main content: what a change request's
 * changes are drawn against (the revision it started from, or last took main in from).
 * 404 for a revision of another space or of a change request's branch.
 */
export async function mainRevisionStateOf(
  db: Queryable,
  space: SpaceRow,
  revisionId: string,
): Promise<{ head: RevisionHead; state: Uint8Array }> {
  const head = await getRevisionHead(db, revisionId);
  if (!head || head.space_id !== space.id || head.change_request_id !== null) throw notFound('revision');
  return { head, state: await revisionState(db, head.id) };
}
