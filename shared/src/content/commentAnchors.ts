import * as Y from 'yjs';
import { isRecord } from './json';

/**
 * Where comments sit in a page's text: a top-level Y.Map of the branch doc beside the
 * maps of `BranchMap`, `anchorId → {page, comment, from, to, resolved?}` (plain JSON).
 * `from` and `to` are Yjs relative positions (`Y.relativePositionToJSON`) into the page's
 * body, so the passage follows every edit made around it, by anyone, and every client that
 * has the branch can draw it. `comment` is the comment's id as the server knows it once it
 * does (the writer's local id until then). A top-level map, not a key per page: two clients
 * creating a nested map at once would each keep only their own.
 */
export const COMMENT_ANCHORS = 'commentAnchors';

/** A Yjs id (`{client, clock}`) as relative positions hold it. */
export interface YIdJSON {
  client: number;
  clock: number;
}

/** A relative position as `Y.relativePositionToJSON` writes it. */
export interface RelativePositionJSON {
  type?: YIdJSON;
  tname?: string;
  item?: YIdJSON;
  assoc?: number;
}

export interface CommentAnchor {
  page: string;
  comment: string;
  from: RelativePositionJSON;
  to: RelativePositionJSON;
  /** The thread is resolved: its passage is no longer marked. */
  resolved?: boolean;
}

export function commentAnchorsMap(doc: Y.Doc): Y.Map<unknown> {
  return doc.getMap(COMMENT_ANCHORS);
}

const isId = (v: unknown): v is YIdJSON => isRecord(v) && Number.isInteger(v.client) && Number.isInteger(v.clock);
const isPosition = (v: unknown): v is RelativePositionJSON =>
  isRecord(v) && (v.item === undefined || isId(v.item)) && (v.type === undefined || isId(v.type)) && (!!v.item || !!v.type || !!v.tname);

/** An anchor as stored, or null when the value is not one (written by something else). */
function readAnchor(value: unknown): CommentAnchor | null {
  if (!isRecord(value) || typeof value.page !== 'string' || typeof value.comment !== 'string') return null;
  if (!isPosition(value.from) || !isPosition(value.to)) return null;
  return {
    page: value.page,
    comment: value.comment,
    from: value.from,
    to: value.to,
    ...(value.resolved === true ? { resolved: true } : {}),
  };
}

/** Marks a comment's passage. */
export function setCommentAnchor(doc: Y.Doc, anchorId: string, anchor: CommentAnchor): void {
  commentAnchorsMap(doc).set(anchorId, { ...anchor });
}

/** The anchors of one page (every page's when `pageId` is left out), by anchor id. */
export function listCommentAnchors(doc: Y.Doc, pageId?: string): Map<string, CommentAnchor> {
  const out = new Map<string, CommentAnchor>();
  commentAnchorsMap(doc).forEach((value, id) => {
    const anchor = readAnchor(value);
    if (anchor && (pageId === undefined || anchor.page === pageId)) out.set(id, anchor);
  });
  return out;
}

/** Rewrites the anchors of the comments named in `ids` with `change`, in one transaction; how many changed. */
function rewrite(doc: Y.Doc, ids: readonly string[], change: (a: CommentAnchor) => CommentAnchor | null): number {
  const wanted = new Set(ids);
  let changed = 0;
  doc.transact(() => {
    for (const [id, anchor] of listCommentAnchors(doc)) {
      if (!wanted.has(anchor.comment)) continue;
      const next = change(anchor);
      if (!next) continue;
      commentAnchorsMap(doc).set(id, next);
      changed++;
    }
  });
  return changed;
}

/** Marks the passages of a comment (known by any of `ids`) resolved or open again. */
export function setCommentAnchorsResolved(doc: Y.Doc, ids: readonly string[], resolved: boolean): number {
  return rewrite(doc, ids, (a) => {
    if (!!a.resolved === resolved) return null;
    const { resolved: _, ...open } = a;
    return resolved ? { ...open, resolved: true } : open;
  });
}

/** Points the anchors of a comment at the id the server gave it. */
export function renameAnchoredComment(doc: Y.Doc, from: string, to: string): number {
  return rewrite(doc, [from], (a) => (a.comment === to ? null : { ...a, comment: to }));
}
