import * as Y from 'yjs';
import type { Queryable } from '../../store/db';
import { linkSpaceFile, putBlob } from '../../store/files';
import { lockRunningGitOperation } from '../../store/git';
import { type GitConnectionRow, getGitConnection, gitEditors, setGitBase } from '../../store/gitConnections';
import { putGitSource } from '../../store/gitSources';
import { getSpace } from '../../store/spaces';
import { exportRevisionFiles } from '../content/export';
import { gitSource } from '../content/import/plan';
import type { ImportPlan } from '../content/import/plan';
import { branchHead, commitToBranch, docAtRevision } from '../content/revisions';
import { applyCommit } from './commitDiff';
import { committer, commitFolder } from './exportRun';
import { normalizeFolder } from './folder';
import { planCommit, resolveRef, write } from './importRun';
import type { GitJob, GitRunResult } from './job';
import { GitFailure, shortRef } from './remote';

/** A push refused because the branch moved is followed by a merge of what moved and another push, this many times in all. */
const PUSH_ATTEMPTS = 3;

/**
 * A sync of a connected space (`git/sync`), pulled by a push to the branch or pushed by a
 * revision of main; either way both sides end equal:
 *
 * - The first one keeps the side the connection chose: the branch's folder is imported, or
 *   main is written over the branch.
 * - Then, when the branch moved past the base (the last commit both agreed on), the new
 *   commit's changes are made on a copy of the base's content and merged into main as a
 *   change request is: both sides' edits survive, there is no conflict to stop on.
 * - Main (with the merge) is written as one commit on top of the branch's head and pushed;
 *   a push refused because the branch moved again fetches, merges and pushes again, never
 *   forced. The base becomes what was pushed.
 */
export async function runSync(job: GitJob): Promise<GitRunResult> {
  const { op, remote, deps } = job;
  const conn = await getGitConnection(deps.db, op.space_id);
  if (!conn) throw new GitFailure('the space is no longer connected to a repository');
  let refs = await remote.refs();
  let existing = resolveRef(refs, conn.ref);
  if (!conn.base_commit || !conn.base_state) {
    if (conn.first_sync === 'git') {
      if (!existing) throw new GitFailure(`ref not found: ${shortRef(conn.ref)}`);
      const commit = await remote.fetch(existing, refs.get(existing));
      const { plan, redirects } = await planCommit(job, commit, existing);
      return write(job, plan, commit, redirects, async (tx, revision) => {
        const state = Y.encodeStateAsUpdate(await docAtRevision(tx, revision));
        await setGitBase(tx, conn.space_id, conn.id, { commit, state, revision });
      });
    }
  }

  const project = normalizeFolder(conn.repo_project_directory ?? undefined, 'repoProjectDirectory');
  let base = conn.base_state ? docOf(conn.base_state) : undefined;
  let baseCommit = conn.base_commit;
  let merged = false;
  for (let attempt = 1; ; attempt++) {
    const ref = existing ?? (conn.ref.startsWith('refs/') ? conn.ref : `refs/heads/${conn.ref}`);
    const head = existing ? refs.get(existing) : undefined;
    const parent = existing ? await remote.fetch(existing, refs.get(existing)) : undefined;
    if (base && parent && head !== baseCommit) {
      const { plan } = await planCommit(job, parent, ref);
      await mergeCommit(job, base, plan, parent, conn.id);
      baseCommit = parent;
      merged = true;
    }
    // What is written: the revision a push was queued for, or main as it is after a merge.
    const revision = !merged && op.request.revision ? op.request.revision : await mainHeadId(job);
    const files = await exportRevisionFiles(deps.db, op.space_id, revision);
    const message = merged ? 'Edits in Quire' : (op.request.commitMessage ?? 'Edits in Quire');
    const editors = await gitEditors(deps.db, op.space_id, conn.base_revision, revision);
    const result = await commitFolder(job, {
      files,
      project,
      ref,
      parent,
      message: withCoAuthors(message, editors),
      author: authorOf(job, editors),
      force: false,
    });
    if (result.outcome !== 'rejected') {
      const commit = result.commit ?? parent;
      if (commit) {
        const state = Y.encodeStateAsUpdate(await docAtRevision(deps.db, revision));
        await setGitBase(deps.db, conn.space_id, conn.id, { commit, state, revision });
      }
      return { state: 'success', ...(result.commit ? { commitOid: result.commit } : commit ? { commitOid: commit } : {}) };
    }
    if (attempt >= PUSH_ATTEMPTS) {
      throw new GitFailure(
        `the push to ${shortRef(ref)} was refused ${PUSH_ATTEMPTS} times: the branch kept moving; it is tried again later`,
      );
    }
    refs = await remote.refs();
    existing = resolveRef(refs, conn.ref);
  }
}

function docOf(state: Uint8Array): Y.Doc {
  const doc = new Y.Doc({ gc: false });
  Y.applyUpdate(doc, state);
  return doc;
}

async function mainHeadId(job: GitJob): Promise<string> {
  const head = await job.deps.db.transaction((tx) => branchHead(tx, { spaceId: job.op.space_id }));
  if (!head) throw new GitFailure('the space was deleted');
  return head.id;
}

/**
 * The commit's changes, made on `base` (which then holds the commit's content), merged into
 * main as a change request's edits are, with the files and sources they need; the base is
 * recorded as that commit in the same transaction, so a later failure never applies the
 * same changes twice.
 */
async function mergeCommit(job: GitJob, base: Y.Doc, plan: ImportPlan, commit: string, connectionId: string): Promise<void> {
  const { op, deps } = job;
  const updates: Uint8Array[] = [];
  const listen = (u: Uint8Array) => updates.push(u);
  base.on('update', listen);
  const diff = applyCommit(base, plan);
  base.off('update', listen);
  await deps.db.transaction(async (tx: Queryable) => {
    if (!(await lockRunningGitOperation(tx, op.id, op.attempts)))
      throw new GitFailure('the operation was stopped before its content was written');
    const space = await getSpace(tx, op.space_id);
    if (!space) throw new GitFailure('the space was deleted');
    const conn = await getGitConnection(tx, op.space_id);
    if (conn?.id !== connectionId) throw new GitFailure('the space was disconnected or connected again meanwhile');
    if (space.edit_mode === 'locked') throw new GitFailure('the space is locked: its content cannot be changed until it is live again');
    for (const f of diff.newFiles) await linkSpaceFile(tx, op.space_id, f.id, await putBlob(tx, f.bytes, f.contentType));
    for (const p of diff.changedPages) if (p.git && p.source) await putGitSource(tx, op.space_id, p.git.oid, p.source);
    const summary = plan.summarySource;
    if (summary) await putGitSource(tx, op.space_id, gitSource(summary.path, summary.bytes).oid, summary.bytes);
    const cut = updates.length
      ? await commitToBranch(tx, { spaceId: op.space_id }, Y.mergeUpdates(updates), {
          type: 'merge',
          createdBy: op.requested_by,
          fromGit: true,
        })
      : undefined;
    const revision = cut?.revision.id ?? conn.base_revision ?? '';
    await setGitBase(tx, op.space_id, connectionId, { commit, state: Y.encodeStateAsUpdate(base), revision });
  });
}

type Editor = { id: string; display_name: string | null; email: string | null };

/** The first editor authors the commit (Quire when nobody edited); every editor is named with `Co-authored-by`. */
function authorOf(job: GitJob, editors: Editor[]): { name: string; email: string } {
  const first = editors.find((e) => e.email);
  return first ? { name: first.display_name || (first.email as string), email: first.email as string } : committer(job);
}

function withCoAuthors(message: string, editors: Editor[]): string {
  const trailers = editors.filter((e) => e.email).map((e) => `Co-authored-by: ${e.display_name || e.email} <${e.email}>`);
  return trailers.length ? `${message}\n\n${trailers.join('\n')}\n` : message;
}

export type { GitConnectionRow };
