import { type MergeRules, newId } from '@quire/shared';
import * as Y from 'yjs';
import { DomainError, conflict } from '@quire/shared/domainErrors';
import {
  type ChangeRequestRow,
  getChangeRequest,
  insertChangeRequest,
  latestReviews,
  lockChangeRequest,
  markMerged,
  markUpdated,
} from '../../store/changeRequests';
import type { Db, Queryable } from '../../store/db';
import { maybeOne } from '../../store/db';
import { type RevisionHead, getRevisionHead } from '../../store/revisions';
import { appendUpdate, updatesSince } from '../../store/ydocs';
import { type Branch, branchDocId, lockBranch } from './branches';
import { orgOfSpace } from '../../store/webhooks';
import { recordWebhookEvent } from '../webhooks/events';
import { branchHead, commitToBranch, initSpaceContent, insertForkRevision, revisionState } from './revisions';

/**
 * A change request event for webhooks, in the transaction of the change. On the change
 * request's own branch (its head) unless the event names main's revision (a merge).
 */
export async function recordChangeRequestEvent(
  tx: Queryable,
  type: 'change_request.created' | 'change_request.updated' | 'change_request.merged' | 'change_request.closed',
  cr: ChangeRequestRow,
  revisionId: string | null,
  extra: Record<string, unknown> = {},
) {
  const orgId = await orgOfSpace(tx, cr.space_id);
  if (!orgId) return;
  await recordWebhookEvent(tx, {
    type,
    orgId,
    spaceId: cr.space_id,
    changeRequest: { id: cr.id, number: cr.number },
    revisionId,
    data: () => ({ status: cr.status, subject: cr.subject ?? null, ...extra }),
  });
}

/** A change request's branch. */
export function crBranch(cr: Pick<ChangeRequestRow, 'id' | 'space_id'>): Branch {
  return { spaceId: cr.space_id, changeRequestId: cr.id };
}

/** Whether the change request can still change (merged and archived ones cannot be merged or updated). */
export function isActive(cr: Pick<ChangeRequestRow, 'status'>): boolean {
  return cr.status === 'draft' || cr.status === 'open';
}

/**
 * Main has a revision the change request has not taken in. Revisions, not state vectors,
 * decide: a deletion on main leaves the state vector unchanged.
 */
export function isOutdated(cr: Pick<ChangeRequestRow, 'status' | 'revision_merged_ancestor'>, spaceRevisionId: string | null): boolean {
  return isActive(cr) && !!spaceRevisionId && spaceRevisionId !== cr.revision_merged_ancestor;
}

/** Main's head revision, creating the space's first one if it has none yet (spaces made before content existed). */
async function mainHead(tx: Queryable, spaceId: string): Promise<RevisionHead> {
  return (await branchHead(tx, { spaceId })) ?? (await initSpaceContent(tx, spaceId));
}

/**
 * Opens a change request: its branch starts as a copy of main's current revision (live
 * edits not yet in one are cut first, so the fork is exactly a revision).
 */
export async function openChangeRequest(
  db: Db,
  spaceId: string,
  userId: string,
  fields: { subject?: string; agentTaskId?: string },
  /** Writes the new branch's first content (a template) in the same transaction: a failure opens nothing. */
  fill?: (tx: Queryable, branch: Branch) => Promise<unknown>,
): Promise<ChangeRequestRow> {
  return db.transaction(async (tx) => {
    // Main's branch lock before the space row (taken to number the change request), as every writer does.
    await lockBranch(tx, branchDocId({ spaceId }));
    const head = await mainHead(tx, spaceId);
    const id = newId();
    const branch = { spaceId, changeRequestId: id };
    const state = await revisionState(tx, head.id);
    const forkDocSeq = await appendUpdate(tx, branchDocId(branch), state);
    const fork = await insertForkRevision(tx, branch, head, forkDocSeq, userId);
    const cr = await insertChangeRequest(tx, {
      id,
      spaceId,
      subject: fields.subject ?? null,
      agentTaskId: fields.agentTaskId ?? null,
      createdBy: userId,
      revisionId: fork.id,
      revisionInitial: head.id,
      forkDocSeq,
      forkStateVector: Y.encodeStateVectorFromUpdate(state),
    });
    if (fill) await fill(tx, branch);
    const opened = (fill && (await getChangeRequest(tx, id))) || cr;
    await recordChangeRequestEvent(tx, 'change_request.created', opened, fork.id, { createdBy: userId });
    return opened;
  });
}

/** The users a space's merge rules require an approval from (`inherit` takes the organization's rules). */
export function requiredReviewers(spaceRules: MergeRules, orgRules: MergeRules): string[] {
  const rules = spaceRules.type === 'inherit' ? orgRules : spaceRules;
  if (rules.type !== 'rules') return [];
  return [...new Set(rules.rules.flatMap((r) => (r.rule === 'require_specific_reviewers' ? r.users : [])))];
}

/** Required reviewers whose latest review is not an approval of the branch's current revision. */
export async function missingApprovals(tx: Queryable, cr: ChangeRequestRow, headId: string, required: string[]): Promise<string[]> {
  if (!required.length) return [];
  const latest = new Map((await latestReviews(tx, cr.id)).map((r) => [r.reviewer_id, r]));
  return required.filter((u) => {
    const r = latest.get(u);
    return !(r && r.status === 'approved' && r.revision_id === headId);
  });
}

/**
 * The change request's own edits as one update: what its branch logged after the fork
 * (main's updates taken in since are included and harmless, main has them), or, when the
 * log was compacted past the fork, the whole branch state less what main had at the fork.
 * Either way the size follows the edits, not the untouched pages, in the common case.
 */
async function branchEdits(tx: Queryable, cr: ChangeRequestRow, head: RevisionHead): Promise<Uint8Array | undefined> {
  const docId = branchDocId(crBranch(cr));
  const stored = await maybeOne<{ snapshot_seq: number }>(tx, 'SELECT snapshot_seq FROM ydocs WHERE id = $1', [docId]);
  if (Number(stored?.snapshot_seq ?? 0) <= cr.fork_doc_seq) {
    const updates = (await updatesSince(tx, docId, cr.fork_doc_seq)).filter((u) => u.seq <= head.doc_seq);
    return updates.length ? Y.mergeUpdates(updates.map((u) => u.update)) : undefined;
  }
  return Y.diffUpdate(await revisionState(tx, head.id), cr.fork_state_vector);
}

/** Main's updates between two of its revisions, or its whole state at `to` when the log was compacted. */
async function mainEditsSince(tx: Queryable, spaceId: string, from: RevisionHead | undefined, to: RevisionHead): Promise<Uint8Array> {
  const docId = branchDocId({ spaceId });
  const stored = await maybeOne<{ snapshot_seq: number }>(tx, 'SELECT snapshot_seq FROM ydocs WHERE id = $1', [docId]);
  if (from && from.branch === docId && Number(stored?.snapshot_seq ?? 0) <= from.doc_seq) {
    const updates = (await updatesSince(tx, docId, from.doc_seq)).filter((u) => u.seq <= to.doc_seq);
    return Y.mergeUpdates(updates.map((u) => u.update));
  }
  return revisionState(tx, to.id);
}

/**
 * Locks what a merge or update writes, in the order every writer takes them: branch locks
 * (main's, then the change request's) before any row, so a concurrent revision cut, import
 * or merge waits instead of deadlocking. Then refuses a change request that cannot move.
 */
async function lockActive(tx: Queryable, crId: string, action: 'merge' | 'update'): Promise<ChangeRequestRow> {
  const found = await maybeOne<{ space_id: string }>(tx, 'SELECT space_id FROM change_requests WHERE id = $1', [crId]);
  if (!found) throw new DomainError('not_found', 'No matching change request found.');
  await lockBranch(tx, branchDocId({ spaceId: found.space_id }));
  await lockBranch(tx, branchDocId({ spaceId: found.space_id, changeRequestId: crId }));
  const cr = await lockChangeRequest(tx, crId);
  if (!cr) throw new DomainError('not_found', 'No matching change request found.');
  if (cr.status === 'merged')
    throw conflict(`The change request is already merged: it cannot be ${action === 'merge' ? 'merged' : 'updated'} again.`);
  if (cr.status === 'archived') throw conflict(`The change request is archived: reopen it (status open) before it can be ${action}d.`);
  return cr;
}

/**
 * Refuses a write to a change request's branch once it is merged or archived. Takes the
 * branch lock before the row, as a merge does, so a write and a merge never interleave.
 */
export async function lockActiveBranch(tx: Queryable, branch: Branch): Promise<void> {
  if (!branch.changeRequestId) return;
  await lockBranch(tx, branchDocId(branch));
  const cr = await lockChangeRequest(tx, branch.changeRequestId);
  if (!cr) throw new DomainError('not_found', 'No matching change request found.');
  if (!isActive(cr)) throw conflict(`The change request is ${cr.status}: its content cannot change any more.`);
}

/**
 * Merges a change request into main as a CRDT merge: the branch's edits are applied to
 * main through main's update log, so concurrent edits on both sides survive and live
 * clients receive the result. Cuts main's merge revision.
 */
export async function mergeChangeRequest(
  db: Db,
  crId: string,
  userId: string,
): Promise<{ revision: string; changeRequest: ChangeRequestRow }> {
  return db.transaction(async (tx) => {
    const cr = await lockActive(tx, crId, 'merge');
    const space = await maybeOne<{ edit_mode: string; merge_rules: MergeRules; org_rules: MergeRules }>(
      tx,
      'SELECT s.edit_mode, s.merge_rules, o.merge_rules AS org_rules FROM spaces s JOIN organizations o ON o.id = s.org_id WHERE s.id = $1',
      [cr.space_id],
    );
    if (!space) throw new DomainError('not_found', 'No matching space found.');
    if (space.edit_mode === 'locked') throw conflict('The space is locked: change requests cannot be merged until it is live again.');
    const main = { spaceId: cr.space_id };
    const head = await branchHead(tx, crBranch(cr));
    if (!head) throw new DomainError('not_found', 'No matching change request found.');
    const missing = await missingApprovals(tx, cr, head.id, requiredReviewers(space.merge_rules, space.org_rules));
    if (missing.length) {
      throw conflict(
        `The merge rules of this space are not met: an approval of the current revision is required from ${missing.map((u) => `user ${u}`).join(', ')}.`,
      );
    }
    const edits = await branchEdits(tx, cr, head);
    const result = edits
      ? await commitToBranch(tx, main, edits, { type: 'merge', createdBy: userId, extraParents: [head.id] })
      : { revision: await mainHead(tx, cr.space_id) };
    if (!result) throw new DomainError('not_found', 'No matching space found.');
    const merged = await markMerged(tx, cr.id, result.revision.id, userId);
    await recordChangeRequestEvent(tx, 'change_request.merged', merged, result.revision.id, { mergedBy: userId });
    return { revision: result.revision.id, changeRequest: merged };
  });
}

/** Takes main's edits since the branch last took them in into the change request's branch. */
export async function updateFromMain(db: Db, crId: string, userId: string): Promise<{ revision: string; changeRequest: ChangeRequestRow }> {
  return db.transaction(async (tx) => {
    const cr = await lockActive(tx, crId, 'update');
    const branch = crBranch(cr);
    const main = await mainHead(tx, cr.space_id);
    let head = await branchHead(tx, branch);
    if (!head) throw new DomainError('not_found', 'No matching change request found.');
    if (main.id !== cr.revision_merged_ancestor) {
      const ancestor = await getRevisionHead(tx, cr.revision_merged_ancestor);
      const edits = await mainEditsSince(tx, cr.space_id, ancestor, main);
      const result = await commitToBranch(tx, branch, edits, { type: 'update', createdBy: userId, extraParents: [main.id] });
      if (result) head = result.revision;
      await markUpdated(tx, cr.id, main.id);
    }
    const updated = await lockChangeRequest(tx, cr.id);
    if (main.id !== cr.revision_merged_ancestor && updated) {
      await recordChangeRequestEvent(tx, 'change_request.updated', updated, head.id, { changes: ['updatedFromMain'], updatedBy: userId });
    }
    return { revision: head.id, changeRequest: updated ?? cr };
  });
}
