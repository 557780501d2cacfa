import type * as Y from 'yjs';
import { isRecord } from './json';
import { PageKey, findPageMap, requirePageMap } from './layout';

/**
 * A page brought back to how it read in a revision of its history, by a writer. It is
 * written beside the restored title and body, in the same transaction, by the client that
 * restores (the writer's own edit, saved and synced like typing), and the server reads it
 * when it cuts the revision holding that edit: the revision is then a `restore` of
 * `revision`, by `by`, rather than plain edits.
 */
export interface PageRestore {
  /** The revision whose page was brought back. */
  revision: string;
  /** The user who restored it. */
  by: string;
  /** When, ISO 8601: two restores of the same version are two changes. */
  at: string;
}

export function markPageRestored(doc: Y.Doc, pageId: string, restore: PageRestore): void {
  requirePageMap(doc, pageId).set(PageKey.restoredFrom, { revision: restore.revision, by: restore.by, at: restore.at });
}

/** The page's last restore, or null (never restored, or a value that is not one). */
export function pageRestoredFrom(doc: Y.Doc, pageId: string): PageRestore | null {
  const value = findPageMap(doc, pageId)?.get(PageKey.restoredFrom);
  if (!isRecord(value) || typeof value.revision !== 'string' || typeof value.by !== 'string' || typeof value.at !== 'string') return null;
  return { revision: value.revision, by: value.by, at: value.at };
}
