import type { Queryable } from '../../store/db';
import { spaceFileHashes } from '../../store/files';
import { type RevisionHead, getRevisionHead } from '../../store/revisions';
import { type LinkBase, signedFileUrl } from './exports';
import type { Materialized } from './materialize';
import { contentAtRevision } from './revisions';

type FileEntry = Materialized['files'][string];

/**
 * Signed download links of a space's files, by file id: only files whose bytes are stored
 * have one (a file the content names before its upload has none yet).
 */
export async function downloadLinks(db: Queryable, links: LinkBase, spaceId: string, files: FileEntry[]): Promise<Map<string, string>> {
  const hashes = await spaceFileHashes(
    db,
    spaceId,
    files.map((f) => f.id),
  );
  const stored = files.filter((f) => hashes.has(f.id));
  const urls = await Promise.all(stored.map((f) => signedFileUrl(db, links, spaceId, f.id, f.name)));
  return new Map(stored.map((f, i) => [f.id, urls[i] as string]));
}

/** A revision with its content and the download links of its files. */
export interface RevisionRead {
  head: RevisionHead;
  content: Materialized;
  downloads: Map<string, string>;
}

/** A revision of a space's branch with its content and download links; undefined when there is no such revision. */
export async function readRevision(db: Queryable, links: LinkBase, revisionId: string): Promise<RevisionRead | undefined> {
  const head = await getRevisionHead(db, revisionId);
  if (!head) return undefined;
  const content = await contentAtRevision(db, head.id);
  const downloads = await downloadLinks(db, links, head.space_id, Object.values(content.files));
  return { head, content, downloads };
}
