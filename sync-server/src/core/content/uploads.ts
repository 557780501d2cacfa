import { conflict } from '@quire/shared/domainErrors';
import type { Db } from '../../store/db';
import { blobHash, claimSpaceFile, putBlob } from '../../store/files';

export interface StoredUpload {
  /** False when the same bytes were already stored under this id (a repeated upload). */
  created: boolean;
  size: number;
}

/**
 * Stores an uploaded file of a space under the id its uploader chose. Uploading the same
 * bytes again under the same id is a no-op, so a client whose answer was lost can simply
 * send it again; other bytes under a taken id are a conflict (a file's bytes never change
 * under readers, links and caches keyed by its id).
 */
export async function storeSpaceFile(
  db: Db,
  spaceId: string,
  fileId: string,
  bytes: Uint8Array,
  contentType: string,
): Promise<StoredUpload> {
  const hash = blobHash(bytes);
  const outcome = await db.transaction(async (tx) => {
    await putBlob(tx, bytes, contentType);
    return claimSpaceFile(tx, spaceId, fileId, hash);
  });
  if (outcome === 'taken') throw conflict(`The file id "${fileId}" already holds other bytes: upload them under a new id.`);
  return { created: outcome === 'created', size: bytes.byteLength };
}
