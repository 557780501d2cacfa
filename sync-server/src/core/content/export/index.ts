import { listFiles } from '@quire/shared/content/index';
import type { Queryable } from '../../../store/db';
import { getBlobContents, spaceFileHashes } from '../../../store/files';
import { getGitSources } from '../../../store/gitSources';
import { docAtRevision } from '../revisions';
import { type ArchiveFormat, packArchive } from './archive';
import { type ExportFiles, exportBranchAsMarkdown } from './markdown';

export type { ArchiveFormat } from './archive';
export const ARCHIVE_FORMATS = ['zip', 'tar.gz'] as const;

/** A revision of a space (main or a change request's) as the folder the markdown import reads. */
export async function exportRevisionFiles(db: Queryable, spaceId: string, revisionId: string): Promise<ExportFiles> {
  // a shared, cached document: read only
  const doc = await docAtRevision(db, revisionId);
  const hashes = await spaceFileHashes(
    db,
    spaceId,
    listFiles(doc).map((f) => f.id),
  );
  const contents = await getBlobContents(db, [...hashes.values()]);
  return exportBranchAsMarkdown(
    doc,
    async (file) => {
      const hash = hashes.get(file.id);
      return hash ? contents.get(hash) : undefined;
    },
    (oids) => getGitSources(db, spaceId, oids),
  );
}

/** The same, packed: what `GET …/content/export?format=markdown` and `admin export` hand out. */
export async function exportRevisionArchive(
  db: Queryable,
  spaceId: string,
  revisionId: string,
  format: ArchiveFormat,
): Promise<Uint8Array> {
  return packArchive(await exportRevisionFiles(db, spaceId, revisionId), format);
}

export const ARCHIVE_TYPES: Record<ArchiveFormat, string> = { zip: 'application/zip', 'tar.gz': 'application/gzip' };
