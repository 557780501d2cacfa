import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  COMMENT_ANCHORS,
  commentAnchorsMap,
  listCommentAnchors,
  renameAnchoredComment,
  setCommentAnchor,
  setCommentAnchorsResolved,
} from './commentAnchors';

const at = (clock: number) => ({ item: { client: 7, clock } });

describe('comment anchors', () => {
  it('are kept per page in one top-level map; resolving and renaming touch only the comment named', () => {
    const doc = new Y.Doc();
    setCommentAnchor(doc, 'a1', { page: 'p1', comment: 'local-1', from: at(1), to: at(5) });
    setCommentAnchor(doc, 'a2', { page: 'p1', comment: 'c2', from: at(8), to: at(9) });
    setCommentAnchor(doc, 'a3', { page: 'p2', comment: 'c3', from: at(2), to: at(3) });
    expect(doc.share.has(COMMENT_ANCHORS)).toBe(true);
    expect([...listCommentAnchors(doc, 'p1').keys()]).toEqual(['a1', 'a2']);
    expect(listCommentAnchors(doc).size).toBe(3);

    expect(renameAnchoredComment(doc, 'local-1', 'server-1')).toBe(1);
    expect(listCommentAnchors(doc).get('a1')?.comment).toBe('server-1');
    // Known by either id, as the writer's machine and every other one name it.
    expect(setCommentAnchorsResolved(doc, ['local-1', 'server-1'], true)).toBe(1);
    expect(setCommentAnchorsResolved(doc, ['server-1'], true)).toBe(0);
    expect(listCommentAnchors(doc).get('a1')?.resolved).toBe(true);
    expect(listCommentAnchors(doc).get('a2')?.resolved).toBeUndefined();
    expect(setCommentAnchorsResolved(doc, ['server-1'], false)).toBe(1);
    expect(listCommentAnchors(doc).get('a1')).toEqual({ page: 'p1', comment: 'server-1', from: at(1), to: at(5) });
  });

  it('reach another replica with its updates, and a value that is not an anchor is left alone', () => {
    const a = new Y.Doc();
    const b = new Y.Doc();
    a.on('update', (u: Uint8Array) => Y.applyUpdate(b, u));
    setCommentAnchor(a, 'a1', { page: 'p1', comment: 'c1', from: at(1), to: at(2) });
    commentAnchorsMap(a).set('junk', { page: 'p1', comment: 'c9', from: 'nowhere', to: at(2) });
    expect([...listCommentAnchors(b, 'p1').keys()]).toEqual(['a1']);
    expect(setCommentAnchorsResolved(a, ['c9'], true)).toBe(0);
    expect(commentAnchorsMap(b).get('junk')).toEqual({ page: 'p1', comment: 'c9', from: 'nowhere', to: at(2) });
  });
});
