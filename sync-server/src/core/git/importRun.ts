import { deletePage, deleteReusableContent, listFiles, listPages, listReusableContents, removeFile } from '@quire/shared/content/index';
import type * as Y from 'yjs';
import { addContributor } from '../../store/changeRequests';
import type { Queryable } from '../../store/db';
import { linkSpaceFiles, putBlobs } from '../../store/files';
import { type GitOperationEnd, finishGitOperation, lockRunningGitOperation } from '../../store/git';
import { getSpace } from '../../store/spaces';
import type { Branch } from '../content/branches';
import { openChangeRequest } from '../content/changeRequests';
import type { Source } from '../content/import/repository';
import { type ImportPlan, applyPlan } from '../content/import/plan';
import { editBranch } from '../content/revisions';
import { keepGitSources, recordGitBaselines } from './baselines';
import { importSiteRedirects } from './redirects';
import { GITBOOK_YAML, normalizeFolder, planProjectImport, readProjectLayout } from './folder';
import { GitFailure, type TreeEntry, checkDeadline, shortRef } from './remote';
import type { GitJob, GitRunResult } from './job';

/**
 * An import: the ref's commit is fetched (alone), the project folder's `.gitbook.yaml`
 * read, its content folder planned as the markdown import plans a folder, and then, in one
 * transaction that also ends the operation, the space's main content (or, standalone, a
 * new change request's) is replaced by it. A failure before that writes nothing.
 */
export async function runImport(job: GitJob): Promise<GitRunResult> {
  const { op, remote } = job;
  const refs = await remote.refs();
  const ref = resolveRef(refs, op.ref);
  if (!ref) throw new GitFailure(`ref not found: ${shortRef(op.ref)}`);
  const commit = await remote.fetch(ref, refs.get(ref));
  const { plan, redirects } = await planCommit(job, commit, ref);
  return write(job, plan, commit, redirects);
}

/** A fetched commit's project folder, planned as an import (nothing written). */
export async function planCommit(
  job: GitJob,
  commit: string,
  ref: string,
): Promise<{ plan: ImportPlan; redirects: Record<string, string> }> {
  const { op, remote, limits } = job;
  checkDeadline(limits);
  const project = normalizeFolder(op.request.repoProjectDirectory, 'repoProjectDirectory');
  const tree = await remote.tree(commit);
  const inProject = (path: string) => !project || path.startsWith(`${project}/`);
  if (project && ![...tree.keys()].some(inProject)) throw new GitFailure(`folder not found in ${shortRef(ref)}: ${project}`);
  const yamlEntry = tree.get(project ? `${project}/${GITBOOK_YAML}` : GITBOOK_YAML);
  const layout = readProjectLayout(yamlEntry ? new TextDecoder().decode(await remote.readBlob(yamlEntry.oid)) : undefined);
  const root = [project, layout.root].filter(Boolean).join('/');

  const files = new Map<string, TreeEntry>();
  for (const [path, entry] of tree) {
    if (entry.type !== 'blob' || (root && !path.startsWith(`${root}/`))) continue;
    files.set(root ? path.slice(root.length + 1) : path, entry);
  }
  if (root && !files.size) throw new GitFailure(`folder not found in ${shortRef(ref)}: ${root}`);
  const plan = await planProjectImport(blobSource(job, files), [...files.keys()], layout, job.deps.config.content);
  checkDeadline(limits);
  return { plan, redirects: layout.redirects };
}

/** `refs/heads/main`, `main` (a branch, else a tag) or `HEAD`, as the full name the remote lists. */
export function resolveRef(refs: Map<string, string>, ref: string): string | undefined {
  for (const name of [ref, `refs/heads/${ref}`, `refs/tags/${ref}`]) if (refs.has(name)) return name;
  return undefined;
}

/**
 * The folder's files as the planner reads them (by path, ignoring case as a checkout on
 * macOS would): blobs are inflated only when read, and all read together may not pass
 * `GIT_MAX_BYTES`, so a small pack of highly compressible files cannot fill the memory.
 */
function blobSource(job: GitJob, files: Map<string, TreeEntry>): Source {
  const lower = new Map([...files.keys()].map((p) => [p.toLowerCase(), p]));
  let left = job.limits.maxBytes;
  return {
    async read(path) {
      const entry = files.get(path) ?? files.get(lower.get(path.toLowerCase()) ?? '');
      if (!entry) return undefined;
      checkDeadline(job.limits);
      const bytes = await job.remote.readBlob(entry.oid);
      left -= bytes.byteLength;
      if (left < 0) throw new GitFailure(`repository larger than GIT_MAX_BYTES (${job.limits.maxBytes} bytes): ${job.remote.url}`);
      return bytes;
    },
  };
}

/** The branch's content replaced by the plan: pages, files and reusable contents alike. */
function replaceContent(doc: Y.Doc, plan: ImportPlan) {
  doc.transact(() => {
    // A page takes its children with it; deleting one already gone does nothing.
    for (const page of listPages(doc)) deletePage(doc, page.id);
    for (const file of listFiles(doc)) removeFile(doc, file.id);
    for (const content of listReusableContents(doc)) deleteReusableContent(doc, content.id);
    applyPlan(doc, plan);
  });
}

/**
 * Writes a planned import into the space and ends the operation, in one transaction;
 * `onWritten` runs in it with main's new revision (a sync records its base there).
 */
export async function write(
  job: GitJob,
  plan: ImportPlan,
  commit: string,
  redirects: Record<string, string>,
  onWritten?: (tx: Queryable, revisionId: string) => Promise<void>,
): Promise<GitRunResult> {
  const { op, deps } = job;
  const { db } = deps;
  const fill = async (tx: Queryable, branch: Branch) => {
    // The operation may have been given up meanwhile (timed out, or its lease taken over): then nothing is written.
    if (!(await lockRunningGitOperation(tx, op.id, op.attempts)))
      throw new GitFailure('the operation was stopped before its content was written');
    const hashes = await putBlobs(
      tx,
      plan.files.map((f) => ({ content: f.bytes, contentType: f.contentType })),
    );
    await linkSpaceFiles(
      tx,
      branch.spaceId,
      plan.files.map((f, i) => ({ fileId: f.id, hash: hashes[i] as string })),
    );
    await keepGitSources(tx, branch.spaceId, plan);
    const { revision } = await editBranch(
      tx,
      branch,
      (doc) => {
        replaceContent(doc, plan);
        recordGitBaselines(doc, plan);
      },
      { type: 'import', createdBy: op.requested_by, ...(op.request.sync ? { fromGit: true } : {}) },
    );
    if (branch.changeRequestId) await addContributor(tx, branch.changeRequestId, op.requested_by);
    else await onWritten?.(tx, revision.id);
    const end: GitOperationEnd = {
      state: 'success',
      commitOid: commit,
      ...(branch.changeRequestId ? { changeRequestId: branch.changeRequestId } : {}),
    };
    await finishGitOperation(tx, op.id, op.attempts, end);
    return end;
  };
  if (op.request.standalone) {
    let end: GitOperationEnd | undefined;
    await openChangeRequest(db, op.space_id, op.requested_by, { subject: `Import from ${shortRef(op.ref)}` }, async (tx, branch) => {
      end = await fill(tx, branch);
    });
    return { ...(end as GitOperationEnd), recorded: true };
  }
  return db.transaction(async (tx) => {
    const space = await getSpace(tx, op.space_id);
    if (!space) throw new GitFailure('the space was deleted');
    if (space.edit_mode === 'locked') throw new GitFailure('the space is locked: its content cannot be changed until it is live again');
    const end = await fill(tx, { spaceId: op.space_id });
    const pageByPath = new Map<string, string>();
    for (const page of plan.pages) if (page.git) pageByPath.set(page.git.path, page.id).set(page.git.path.toLowerCase(), page.id);
    await importSiteRedirects(tx, op.space_id, redirects, pageByPath);
    return { ...end, recorded: true };
  });
}
