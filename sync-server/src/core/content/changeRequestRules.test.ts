import { newId } from '@quire/shared';
import { createPage, listPages } from '@quire/shared/content/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChangeRequestRow, getChangeRequest, insertReview } from '../../store/changeRequests';
import { loadYDoc } from '../../store/ydocs';
import { TestServer, type TestUser } from '../../testing/harness';
import { editLive } from '../../testing/testEdits';
import { branchHead } from './revisions';
import {
  isActive,
  isOutdated,
  lockActiveBranch,
  mergeChangeRequest,
  missingApprovals,
  openChangeRequest,
  requiredReviewers,
  updateFromMain,
} from './changeRequests';

/**
 * What may and may not happen to a change request, called directly: which states refuse a
 * merge or an update and with what answer, the merge rules, a merge or update with nothing
 * to carry, the template written with the fork, and the webhook events each change queues.
 */
let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start();
});
afterAll(async () => t?.close());

async function setup() {
  const { orgId, admin, members } = await t.org(['edit', 'edit']);
  const spaceId = (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Rules' })).body.id as string;
  await editLive(t.db, { spaceId }, (doc) => createPage(doc, { title: 'Main', markdown: 'On main.\n' }));
  return { orgId, admin, reviewers: members as [TestUser, TestUser], spaceId };
}

/** A webhook on every change request event of the organization; returns the events queued since, oldest first. */
async function listenToChangeRequests(orgId: string, admin: TestUser) {
  const events = ['change_request.created', 'change_request.updated', 'change_request.merged', 'change_request.closed'];
  const hook = await t.post(`/v1/orgs/${orgId}/webhooks`, admin.token, { url: 'https://93.184.216.34/hook', events });
  expect(hook.status).toBe(201);
  return async () => {
    const rows = await t.db.query<{ body: string }>('SELECT body FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY seq', [
      hook.body.id,
    ]);
    return rows.map(
      (r) =>
        JSON.parse(r.body) as {
          type: string;
          changeRequest: { id: string; number: number } | null;
          revision: { id: string } | null;
          data: Record<string, unknown>;
        },
    );
  };
}

async function setStatus(crId: string, status: string) {
  await t.db.query('UPDATE change_requests SET status = $2 WHERE id = $1', [crId, status]);
}

/** The last seq a document's log handed out: it moves with every row written, empty ones included. */
async function lastSeq(docId: string) {
  return Number((await t.db.query<{ last_seq: number }>('SELECT last_seq FROM ydocs WHERE id = $1', [docId]))[0]?.last_seq);
}

async function lastLogRowSize(docId: string) {
  const [row] = await t.db.query<{ update: Uint8Array }>('SELECT update FROM ydoc_updates WHERE doc_id = $1 ORDER BY seq DESC LIMIT 1', [
    docId,
  ]);
  return row?.update.byteLength ?? 0;
}

const titles = async (docId: string) =>
  listPages((await loadYDoc(t.db, docId)).doc)
    .map((p) => p.title)
    .sort();

describe('change request states', () => {
  it('is active while draft or open, and outdated only while active and behind a main revision', () => {
    expect(['draft', 'open', 'merged', 'archived'].map((status) => isActive({ status: status as ChangeRequestRow['status'] }))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    const cr = (status: string) => ({ status: status as ChangeRequestRow['status'], revision_merged_ancestor: 'r1' });
    expect(isOutdated(cr('open'), 'r2')).toBe(true);
    expect(isOutdated(cr('draft'), 'r2')).toBe(true);
    expect(isOutdated(cr('open'), 'r1')).toBe(false);
    expect(isOutdated(cr('open'), null)).toBe(false);
    expect(isOutdated(cr('merged'), 'r2')).toBe(false);
    expect(isOutdated(cr('archived'), 'r2')).toBe(false);
  });

  it('refuses to merge or update an unknown, merged or archived change request, saying why', async () => {
    const { admin, spaceId } = await setup();
    await expect(mergeChangeRequest(t.db, 'no-such-cr', admin.id)).rejects.toMatchObject({
      kind: 'not_found',
      message: 'No matching change request found.',
    });
    await expect(updateFromMain(t.db, 'no-such-cr', admin.id)).rejects.toMatchObject({ kind: 'not_found' });

    const archived = await openChangeRequest(t.db, spaceId, admin.id, { subject: 'Archived' });
    await setStatus(archived.id, 'archived');
    await expect(mergeChangeRequest(t.db, archived.id, admin.id)).rejects.toMatchObject({
      kind: 'conflict',
      message: 'The change request is archived: reopen it (status open) before it can be merged.',
    });
    await expect(updateFromMain(t.db, archived.id, admin.id)).rejects.toMatchObject({
      kind: 'conflict',
      message: 'The change request is archived: reopen it (status open) before it can be updated.',
    });

    const merged = await openChangeRequest(t.db, spaceId, admin.id, { subject: 'Merged' });
    await mergeChangeRequest(t.db, merged.id, admin.id);
    await expect(mergeChangeRequest(t.db, merged.id, admin.id)).rejects.toMatchObject({
      kind: 'conflict',
      message: 'The change request is already merged: it cannot be merged again.',
    });
    await expect(updateFromMain(t.db, merged.id, admin.id)).rejects.toMatchObject({
      kind: 'conflict',
      message: 'The change request is already merged: it cannot be updated again.',
    });
  });

  it('refuses a write to the branch of a change request that is merged, archived or unknown', async () => {
    const { admin, spaceId } = await setup();
    const cr = await openChangeRequest(t.db, spaceId, admin.id, { subject: 'Writes' });
    const branch = { spaceId, changeRequestId: cr.id };
    const attempt = (b: typeof branch | { spaceId: string }) => t.db.transaction((tx) => lockActiveBranch(tx, b));
    await expect(attempt(branch)).resolves.toBeUndefined();
    await expect(attempt({ spaceId })).resolves.toBeUndefined();
    await setStatus(cr.id, 'open');
    await expect(attempt(branch)).resolves.toBeUndefined();
    await setStatus(cr.id, 'archived');
    await expect(attempt(branch)).rejects.toMatchObject({
      kind: 'conflict',
      message: 'The change request is archived: its content cannot change any more.',
    });
    await setStatus(cr.id, 'merged');
    await expect(attempt(branch)).rejects.toMatchObject({
      kind: 'conflict',
      message: 'The change request is merged: its content cannot change any more.',
    });
    await expect(attempt({ spaceId, changeRequestId: newId() })).rejects.toMatchObject({
      kind: 'not_found',
      message: 'No matching change request found.',
    });
  });

  it('refuses to merge into a locked space', async () => {
    const { admin, spaceId } = await setup();
    const cr = await openChangeRequest(t.db, spaceId, admin.id, { subject: 'Locked' });
    await t.db.query("UPDATE spaces SET edit_mode = 'locked' WHERE id = $1", [spaceId]);
    await expect(mergeChangeRequest(t.db, cr.id, admin.id)).rejects.toMatchObject({
      kind: 'conflict',
      message: 'The space is locked: change requests cannot be merged until it is live again.',
    });
    expect((await getChangeRequest(t.db, cr.id))?.status).toBe('draft');
  });
});

describe('merge rules', () => {
  const rules = (...users: string[][]) => ({
    type: 'rules' as const,
    rules: users.map((u) => ({ rule: 'require_specific_reviewers' as const, users: u })),
  });

  it("takes the space's rules, or the organization's when the space inherits, each reviewer once", () => {
    expect(requiredReviewers(rules(['a', 'b'], ['b', 'c']), rules(['z']))).toEqual(['a', 'b', 'c']);
    expect(requiredReviewers({ type: 'inherit' }, rules(['z']))).toEqual(['z']);
    expect(requiredReviewers({ type: 'none' }, rules(['z']))).toEqual([]);
    expect(requiredReviewers({ type: 'inherit' }, { type: 'none' })).toEqual([]);
    expect(requiredReviewers(rules(), rules(['z']))).toEqual([]);
  });

  it('merges only once every required reviewer approved the current revision', async () => {
    const { admin, reviewers, spaceId } = await setup();
    const [ann, bob] = reviewers;
    await t.db.query('UPDATE spaces SET merge_rules = $2 WHERE id = $1', [spaceId, JSON.stringify(rules([ann.id, bob.id]))]);
    const cr = await openChangeRequest(t.db, spaceId, admin.id, { subject: 'Reviewed' });
    const branch = { spaceId, changeRequestId: cr.id };
    const review = async (who: TestUser, status: 'approved' | 'changes-requested') => {
      const head = await branchHead(t.db, branch);
      await insertReview(t.db, { id: newId(), changeRequestId: cr.id, reviewerId: who.id, status, revisionId: head!.id });
    };
    const refusal = (...users: TestUser[]) => ({
      kind: 'conflict',
      message: `The merge rules of this space are not met: an approval of the current revision is required from ${users.map((u) => `user ${u.id}`).join(', ')}.`,
    });
    await expect(mergeChangeRequest(t.db, cr.id, admin.id)).rejects.toMatchObject(refusal(ann, bob));
    await review(ann, 'approved');
    await review(bob, 'changes-requested');
    await expect(mergeChangeRequest(t.db, cr.id, admin.id)).rejects.toMatchObject(refusal(bob));
    // Bob approves, then the branch moves on: Ann's approval was of an earlier revision.
    await review(bob, 'approved');
    await editLive(t.db, branch, (doc) => createPage(doc, { title: 'After the reviews', markdown: 'New.\n' }));
    await expect(mergeChangeRequest(t.db, cr.id, admin.id)).rejects.toMatchObject(refusal(ann, bob));
    await review(ann, 'approved');
    await review(bob, 'approved');
    const head = await branchHead(t.db, branch);
    expect(await missingApprovals(t.db, (await getChangeRequest(t.db, cr.id))!, head!.id, [ann.id, bob.id])).toEqual([]);
    expect(await missingApprovals(t.db, (await getChangeRequest(t.db, cr.id))!, head!.id, [])).toEqual([]);
    await expect(mergeChangeRequest(t.db, cr.id, admin.id)).resolves.toMatchObject({ changeRequest: { status: 'merged' } });
    expect(await titles(`space:${spaceId}`)).toEqual(['After the reviews', 'Main']);
  });
});

describe('merging and updating', () => {
  it('merges a change request without edits into main as it is, marking it merged by the caller', async () => {
    const { admin, spaceId } = await setup();
    const cr = await openChangeRequest(t.db, spaceId, admin.id, { subject: 'Nothing' });
    const before = await branchHead(t.db, { spaceId });
    const logBefore = await lastSeq(`space:${spaceId}`);
    const { revision, changeRequest } = await mergeChangeRequest(t.db, cr.id, admin.id);
    expect(revision).toBe(before?.id);
    // Nothing reaches main's log, so live clients of main receive nothing.
    expect(await lastSeq(`space:${spaceId}`)).toBe(logBefore);
    expect(changeRequest).toMatchObject({ id: cr.id, status: 'merged', revision_merged: before?.id, merged_by: admin.id });
    expect(await titles(`space:${spaceId}`)).toEqual(['Main']);
  });

  it('updates a change request that is up to date without a new revision, and one that is behind with one', async () => {
    const { admin, spaceId } = await setup();
    const cr = await openChangeRequest(t.db, spaceId, admin.id, { subject: 'Update' });
    const branch = { spaceId, changeRequestId: cr.id };
    const forkHead = await branchHead(t.db, branch);
    const logBefore = await lastSeq(`cr:${cr.id}`);
    const same = await updateFromMain(t.db, cr.id, admin.id);
    expect(same.revision).toBe(forkHead?.id);
    expect(await lastSeq(`cr:${cr.id}`)).toBe(logBefore);
    expect(same.changeRequest.revision_merged_ancestor).toBe(cr.revision_merged_ancestor);

    await editLive(t.db, { spaceId }, (doc) => createPage(doc, { title: 'Later on main', markdown: 'Later.\n' }));
    const moved = await updateFromMain(t.db, cr.id, admin.id);
    const mainHead = await branchHead(t.db, { spaceId });
    expect(moved.revision).not.toBe(forkHead?.id);
    expect(moved.revision).toBe((await branchHead(t.db, branch))?.id);
    expect(moved.changeRequest.revision_merged_ancestor).toBe(mainHead?.id);
    expect(await titles(`cr:${cr.id}`)).toEqual(['Later on main', 'Main']);
  });

  it("sends the branch only main's edits since the last update, not main's whole content", async () => {
    const { admin, spaceId } = await setup();
    // A long page from before the fork: carrying main's whole state would carry it again.
    await editLive(t.db, { spaceId }, (doc) => createPage(doc, { title: 'Long', markdown: `${'Long text. '.repeat(6000)}\n` }));
    const cr = await openChangeRequest(t.db, spaceId, admin.id, { subject: 'Small update' });
    await editLive(t.db, { spaceId }, (doc) => createPage(doc, { title: 'Later on main', markdown: 'Later.\n' }));
    await updateFromMain(t.db, cr.id, admin.id);

    expect(await titles(`cr:${cr.id}`)).toEqual(['Later on main', 'Long', 'Main']);
    // What live clients of the branch receive is its newest log row.
    expect(await lastLogRowSize(`cr:${cr.id}`)).toBeLessThan(5000);
  });

  it('writes a template with the fork in the same transaction, and opens nothing when writing it fails', async () => {
    const { admin, spaceId } = await setup();
    const cr = await openChangeRequest(t.db, spaceId, admin.id, {}, async (tx, branch) => {
      await tx.query('UPDATE change_requests SET subject = $2 WHERE id = $1', [branch.changeRequestId, 'Filled in']);
    });
    expect(cr).toMatchObject({ subject: 'Filled in', agent_task_id: null, created_by: admin.id, status: 'draft' });
    const plain = await openChangeRequest(t.db, spaceId, admin.id, {});
    expect(plain.subject).toBeNull();
    const fromTask = await openChangeRequest(t.db, spaceId, admin.id, { subject: 'By a task', agentTaskId: 'task-1' });
    expect(fromTask.agent_task_id).toBe('task-1');

    const count = async () =>
      Number((await t.db.query<{ n: number }>('SELECT count(*) AS n FROM change_requests WHERE space_id = $1', [spaceId]))[0]?.n);
    const before = await count();
    await expect(
      openChangeRequest(t.db, spaceId, admin.id, { subject: 'Broken' }, async () => {
        throw new Error('template broke');
      }),
    ).rejects.toThrow('template broke');
    expect(await count()).toBe(before);
  });
});

describe('webhook events of change requests', () => {
  it('queues created, updated and merged events with the revision and who did it', async () => {
    const { orgId, admin, spaceId } = await setup();
    const queued = await listenToChangeRequests(orgId, admin);
    const cr = await openChangeRequest(t.db, spaceId, admin.id, { subject: 'Hooked' });
    // Nothing to take in yet: no event.
    await updateFromMain(t.db, cr.id, admin.id);
    await editLive(t.db, { spaceId }, (doc) => createPage(doc, { title: 'Main later', markdown: 'x\n' }));
    const updated = await updateFromMain(t.db, cr.id, admin.id);
    await editLive(t.db, { spaceId, changeRequestId: cr.id }, (doc) => createPage(doc, { title: 'Branch', markdown: 'y\n' }));
    const merged = await mergeChangeRequest(t.db, cr.id, admin.id);

    const events = await queued();
    expect(events.map((e) => e.type)).toEqual(['change_request.created', 'change_request.updated', 'change_request.merged']);
    for (const e of events) expect(e.changeRequest).toMatchObject({ id: cr.id, number: cr.number });
    expect(events[0]).toMatchObject({
      revision: { id: cr.revision_id },
      data: { status: 'draft', subject: 'Hooked', createdBy: admin.id },
    });
    expect(events[1]).toMatchObject({
      revision: { id: updated.revision },
      data: { status: 'draft', subject: 'Hooked', changes: ['updatedFromMain'], updatedBy: admin.id },
    });
    expect(events[2]).toMatchObject({
      revision: { id: merged.revision },
      data: { status: 'merged', subject: 'Hooked', mergedBy: admin.id },
    });
    expect(await titles(`space:${spaceId}`)).toEqual(['Branch', 'Main', 'Main later']);
  });

  it('names no subject as null', async () => {
    const { orgId, admin, spaceId } = await setup();
    const queued = await listenToChangeRequests(orgId, admin);
    await openChangeRequest(t.db, spaceId, admin.id, {});
    expect((await queued())[0]?.data).toMatchObject({ subject: null });
  });
});
