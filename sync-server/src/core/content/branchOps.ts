import { badRequest, conflict, notFound } from '@quire/shared/domainErrors';
import type { ContentRef } from '@quire/shared/schemas/content';
import type { Config } from '../../config';
import { addContributor, type ChangeRequestRow } from '../../store/changeRequests';
import type { Db } from '../../store/db';
import { getSpace, type SpaceRow } from '../../store/spaces';
import type { Branch } from './branches';
import { crBranch, isActive } from './changeRequests';
import { type LinkBase, signedFileUrl, signedPdfUrl } from './exports';
import { type ImportRequest, importIntoBranch } from './import';
import { branchHead, contentAtRevision, initSpaceContent } from './revisions';
import { applyTemplate } from './templates';
import { storeSpaceFile } from './uploads';

/**
 * What the content routes do to a branch (main or a change request's) beyond reading it:
 * who may write when, and what a write leaves behind (the caller counted as a contributor).
 */

/** The branch a content route works on, already checked for the caller. */
export interface BranchTarget {
  space: SpaceRow;
  cr: ChangeRequestRow | undefined;
  branch: Branch;
}

/** The current revision of a space; spaces made before content existed get their first (empty) one on first read. */
export async function spaceRevisionId(db: Db, space: SpaceRow): Promise<string> {
  return space.revision_id ?? (await db.transaction((tx) => initSpaceContent(tx, space.id))).id;
}

/** Refuses writing a change request that is merged or archived. */
export function checkChangeRequestActive(cr: ChangeRequestRow | undefined): void {
  if (cr && !isActive(cr)) throw conflict(`The change request is ${cr.status}: its content cannot change any more.`);
}

/** Refuses writing a branch the writer cannot change: a locked space's main, or a closed change request. */
export function checkBranchWritable(t: Pick<BranchTarget, 'space' | 'cr'>): void {
  if (!t.cr && t.space.edit_mode === 'locked') throw conflict('The space is locked: its content cannot be changed until it is live again.');
  checkChangeRequestActive(t.cr);
}

/** A signed link to the PDF of a space's main branch; live edits not yet in a revision are cut first. */
export async function spacePdfUrl(db: Db, links: LinkBase, space: SpaceRow, q: { page?: string; only?: boolean }): Promise<string> {
  const head =
    (await db.transaction((tx) => branchHead(tx, { spaceId: space.id }))) ?? (await db.transaction((tx) => initSpaceContent(tx, space.id)));
  if (q.page && !(await contentAtRevision(db, head.id)).pages[q.page]) throw notFound('page');
  return signedPdfUrl(db, links, { spaceId: space.id, revisionId: head.id, page: q.page, only: !!q.only });
}

/** A signed link to the PDF of a change request's branch, as it is now. */
export async function changeRequestPdfUrl(
  db: Db,
  links: LinkBase,
  cr: ChangeRequestRow,
  q: { page?: string; only?: boolean },
): Promise<string> {
  const head = await db.transaction((tx) => branchHead(tx, crBranch(cr)));
  if (!head) throw notFound('change request');
  if (q.page && !(await contentAtRevision(db, head.id)).pages[q.page]) throw notFound('page');
  return signedPdfUrl(db, links, { spaceId: cr.space_id, changeRequestId: cr.id, revisionId: head.id, page: q.page, only: !!q.only });
}

/** Fills a branch from a built-in template. */
export async function applyTemplateAs(
  db: Db,
  t: BranchTarget,
  templateId: string,
  refs: Record<string, ContentRef>,
  userId: string,
): Promise<void> {
  checkBranchWritable(t);
  await applyTemplate(db, (await getSpace(db, t.space.id)) ?? t.space, t.branch, templateId, refs, userId);
  if (t.cr) await addContributor(db, t.cr.id, userId);
}

/** Imports markdown or a website into a branch. */
export async function importAs(deps: { db: Db; config: Config }, t: BranchTarget, req: ImportRequest, userId: string) {
  checkBranchWritable(t);
  const result = await importIntoBranch(deps, t.branch, req, userId);
  if (t.cr) await addContributor(deps.db, t.cr.id, userId);
  return result;
}

/**
 * Stores the bytes of a file of a space (a change request still open may upload too) and
 * answers its signed download link; `created` says whether the file is new.
 */
export async function uploadFileAs(
  db: Db,
  links: LinkBase,
  t: Pick<BranchTarget, 'space' | 'cr'>,
  file: { id: string; name: string; contentType: string; bytes: Uint8Array },
): Promise<{ size: number; created: boolean; downloadURL: string }> {
  checkChangeRequestActive(t.cr);
  if (file.bytes.byteLength === 0) throw badRequest('Invalid body: empty; send the bytes of the file.');
  const stored = await storeSpaceFile(db, t.space.id, file.id, file.bytes, file.contentType);
  const downloadURL = await signedFileUrl(db, links, t.space.id, file.id, file.name);
  return { size: stored.size, created: stored.created, downloadURL };
}
