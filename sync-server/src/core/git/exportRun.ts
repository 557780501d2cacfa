import type { GitOperationEnd } from '../../store/git';
import { getUser } from '../../store/users';
import { gitSource } from '../content/import/plan';
import { exportRevisionFiles } from '../content/export';
import type { ExportFiles } from '../content/export/markdown';
import { branchHead, initSpaceContent } from '../content/revisions';
import { GITBOOK_YAML, normalizeFolder, readProjectLayout } from './folder';
import type { GitJob } from './job';
import { GitFailure, type TreeEntry, checkDeadline, shortRef } from './remote';
import { resolveRef } from './importRun';

/** A push refused as not a fast-forward is fetched and built again this many times in all. */
const PUSH_ATTEMPTS = 3;

/**
 * Files the export owns in the content folder: the pages and the `.gitbook/` folders it
 * writes. One of these the space no longer holds is removed; anything else there (code,
 * configuration, `.gitbook.yaml`) is left as it is.
 */
function ownedByExport(path: string): boolean {
  return /\.(md|markdown)$/i.test(path) || path.startsWith('.gitbook/assets/') || path.startsWith('.gitbook/includes/');
}

/**
 * An export: the space's main content as the folder the markdown import reads, written
 * into the project folder of the ref (fetched alone, when it exists) as one commit with
 * the message asked for, committed by Quire and authored by who asked, and pushed. A file
 * whose bytes did not change keeps its blob, so an export that changes nothing makes no
 * commit. A push refused because the ref moved is fetched and built again; it is forced
 * only when asked.
 */
export async function runExport(job: GitJob): Promise<GitOperationEnd> {
  const { op, remote, deps } = job;
  const head =
    (await deps.db.transaction((tx) => branchHead(tx, { spaceId: op.space_id }))) ??
    (await deps.db.transaction((tx) => initSpaceContent(tx, op.space_id)));
  const files = await exportRevisionFiles(deps.db, op.space_id, head.id);
  const user = await getUser(deps.db, op.requested_by);
  const author = { name: user?.display_name || user?.email || 'Quire', email: user?.email ?? committer(job).email };
  const project = normalizeFolder(op.request.repoProjectDirectory, 'repoProjectDirectory');

  for (let attempt = 1; ; attempt++) {
    const refs = await remote.refs();
    const existing = resolveRef(refs, op.ref);
    const ref = existing ?? (op.ref.startsWith('refs/') ? op.ref : `refs/heads/${op.ref}`);
    const parent = existing ? await remote.fetch(existing, refs.get(existing)) : undefined;
    const result = await commitFolder(job, {
      files,
      project,
      ref,
      parent,
      message: op.request.commitMessage ?? 'Export from Quire',
      author,
      force: !!op.request.force,
    });
    if (result.outcome === 'unchanged') return { state: 'success' };
    if (result.outcome === 'pushed') return { state: 'success', commitOid: result.commit };
    if (attempt >= PUSH_ATTEMPTS) {
      throw new GitFailure(
        `the push to ${shortRef(ref)} was refused ${PUSH_ATTEMPTS} times: the branch kept moving; export again, or with force`,
      );
    }
  }
}

/** One commit of an export: the folder written over the parent's tree (the project folder of it). */
export interface FolderCommit {
  files: ExportFiles;
  project: string;
  /** The ref's full name, and its commit when it exists (already fetched). */
  ref: string;
  parent: string | undefined;
  message: string;
  author: { name: string; email: string };
  force: boolean;
}

/**
 * Writes the folder into the parent's tree as one commit and pushes it. `unchanged` when
 * the tree came out the same (nothing pushed); `rejected` when the ref moved meanwhile.
 */
export async function commitFolder(
  job: GitJob,
  c: FolderCommit,
): Promise<{ outcome: 'pushed' | 'rejected' | 'unchanged'; commit?: string }> {
  const { remote, limits } = job;
  const base = c.parent ? await remote.tree(c.parent) : new Map<string, TreeEntry>();
  checkDeadline(limits);

  const yamlEntry = base.get(c.project ? `${c.project}/${GITBOOK_YAML}` : GITBOOK_YAML);
  const layout = readProjectLayout(yamlEntry ? new TextDecoder().decode(await remote.readBlob(yamlEntry.oid)) : undefined);
  const root = [c.project, layout.root].filter(Boolean).join('/');
  const at = (path: string) => (root ? `${root}/${path}` : path);
  const written = new Map<string, Uint8Array>();
  for (const [path, bytes] of c.files) written.set(path === 'SUMMARY.md' && layout.summary ? layout.summary : path, bytes);

  const next = new Map(base);
  const changed: string[] = [];
  for (const path of base.keys()) {
    if (root && !path.startsWith(`${root}/`)) continue;
    const inside = root ? path.slice(root.length + 1) : path;
    if (ownedByExport(inside) && !written.has(inside)) {
      next.delete(path);
      changed.push(path);
    }
  }
  for (const [path, bytes] of written) {
    const before = base.get(at(path));
    const oid = gitSource(path, bytes).oid;
    // Unchanged bytes are the same blob: nothing is written for them.
    if (before?.oid === oid && before.type === 'blob') continue;
    await remote.writeBlob(bytes);
    next.set(at(path), { oid, mode: before?.type === 'blob' ? before.mode : '100644', type: 'blob' });
    changed.push(at(path));
  }
  const tree = await remote.writeTrees(next, c.parent ? { commit: c.parent, changed } : undefined);
  if (c.parent && tree === (await remote.treeOf(c.parent))) return { outcome: 'unchanged' };
  checkDeadline(limits);

  const commit = await remote.writeCommit({
    tree,
    parents: c.parent ? [c.parent] : [],
    message: c.message,
    author: c.author,
    committer: committer(job),
  });
  const pushed = await remote.push(commit, c.ref, c.force);
  return pushed === 'pushed' ? { outcome: 'pushed', commit } : { outcome: 'rejected' };
}

/** Quire commits in its own name, at the server's host. */
export function committer(job: Pick<GitJob, 'deps'>): { name: string; email: string } {
  const host = job.deps.config.publicUrl ? new URL(job.deps.config.publicUrl).hostname : 'localhost';
  return { name: 'Quire', email: `quire@${host}` };
}
