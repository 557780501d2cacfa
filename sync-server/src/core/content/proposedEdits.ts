import { conflict } from '@quire/shared/domainErrors';
import { addContributor, type ChangeRequestRow, getChangeRequest } from '../../store/changeRequests';
import type { Db } from '../../store/db';
import { getSpace, type SpaceRow } from '../../store/spaces';
import { crBranch, isActive, openChangeRequest } from './changeRequests';
import type { ChangeRequestsRead } from './changeRequestViews';
import { readChangeRequest } from './changeRequestWrites';
import { type PageMarkdownEdit, writePageMarkdown } from './pageEdits';

/** Where an edit proposed by an agent lands: main, a change request named, or one opened for it. */
export type ProposedEditTarget = { kind: 'main' } | { kind: 'change-request'; cr: ChangeRequestRow } | { kind: 'new'; subject: string };

/**
 * Writes a page from markdown where the edit was proposed: main (refused while the space is
 * locked), an open change request, or a new change request opened and written in one
 * transaction, so an edit that fails opens nothing. A change request written counts the
 * writer as a contributor, and is answered as it now reads.
 */
export async function proposeEdit(
  db: Db,
  space: SpaceRow,
  target: ProposedEditTarget,
  edit: PageMarkdownEdit,
  userId: string,
): Promise<{ pageId: string; revision: string; changeRequest?: ChangeRequestsRead }> {
  if (target.kind === 'main') {
    if (space.edit_mode === 'locked') throw conflict('The space is locked: its content cannot be changed until it is live again.');
    return db.transaction((tx) => writePageMarkdown(tx, { spaceId: space.id }, edit, userId));
  }
  let crId: string;
  let written: { pageId: string; revision: string };
  if (target.kind === 'change-request') {
    const { cr } = target;
    if (!isActive(cr)) throw conflict(`The change request is ${cr.status}: its content cannot change any more.`);
    written = await db.transaction((tx) => writePageMarkdown(tx, crBranch(cr), edit, userId));
    crId = cr.id;
  } else {
    let inside: typeof written | undefined;
    const cr = await openChangeRequest(db, space.id, userId, { subject: target.subject }, async (tx, branch) => {
      inside = await writePageMarkdown(tx, branch, edit, userId);
    });
    written = inside as typeof written;
    crId = cr.id;
  }
  await addContributor(db, crId, userId);
  const cr = await getChangeRequest(db, crId);
  const fresh = (await getSpace(db, space.id)) ?? space;
  return { ...written, changeRequest: cr && (await readChangeRequest(db, cr, fresh)) };
}
