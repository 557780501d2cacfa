import { type CommentAnchor, type RelativePositionJSON, commentAnchorsMap, listCommentAnchors } from '@quire/shared/content/commentAnchors';
import { Extension } from '@tiptap/core';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet, type EditorView } from '@tiptap/pm/view';
import { absolutePositionToRelativePosition, relativePositionToAbsolutePosition, ySyncPluginKey } from 'y-prosemirror';
import * as Y from 'yjs';
import type { CommentAnchorInput } from '../../common/ipc';
import { activeEditor } from './activeEditor';

/** Asks the window to open the comments panel on one thread (`detail.commentId`). */
export const OPEN_COMMENT = 'quire:open-comment';

interface SyncState {
  type: Y.XmlFragment;
  binding: { mapping: Map<Y.AbstractType<unknown>, unknown> } | null;
}

const syncState = (view: EditorView) => ySyncPluginKey.getState(view.state) as SyncState | undefined;

/**
 * The passage selected in the page editor as positions relative to the page's Yjs body,
 * which hold through any edit made meanwhile, here or elsewhere; null without a selection.
 */
export function selectionAnchor(): CommentAnchorInput | null {
  const editor = activeEditor();
  const sync = editor && syncState(editor.view);
  if (!editor || !sync?.binding || editor.state.selection.empty) return null;
  const { from, to } = editor.state.selection;
  const relative = (pos: number) =>
    Y.relativePositionToJSON(absolutePositionToRelativePosition(pos, sync.type, sync.binding?.mapping as never)) as RelativePositionJSON;
  return { from: relative(from), to: relative(to) };
}

const key = new PluginKey<DecorationSet>('commentHighlights');

/** Where each open thread's passage is in the page now. */
function highlights(view: EditorView, doc: Y.Doc, pageId: string): DecorationSet {
  const sync = syncState(view);
  if (!sync?.binding) return DecorationSet.empty;
  const at = (json: RelativePositionJSON) =>
    relativePositionToAbsolutePosition(doc, sync.type, Y.createRelativePositionFromJSON(json), sync.binding?.mapping as never);
  const size = view.state.doc.content.size;
  const decorations: Decoration[] = [];
  for (const [id, anchor] of listCommentAnchors(doc, pageId) as Map<string, CommentAnchor>) {
    if (anchor.resolved) continue;
    const from = at(anchor.from);
    const to = at(anchor.to);
    if (from === null || to === null || to <= from || to > size) continue;
    decorations.push(
      Decoration.inline(
        from,
        to,
        { class: 'qe-comment-highlight', 'data-comment': anchor.comment, title: 'Open the comment' },
        { comment: anchor.comment, anchor: id },
      ),
    );
  }
  return DecorationSet.create(view.state.doc, decorations);
}

/**
 * Whether two sets mark the same passages for the same threads: an anchor keeps its id
 * while the comment it opens is named again (the local id, then the server's).
 */
function sameMarks(a: DecorationSet | undefined, b: DecorationSet): boolean {
  const x = a?.find() ?? [];
  const y = b.find();
  return (
    x.length === y.length &&
    x.every(
      (d, i) => d.from === y[i]?.from && d.to === y[i]?.to && d.spec.anchor === y[i]?.spec.anchor && d.spec.comment === y[i]?.spec.comment,
    )
  );
}

/**
 * Marks the passages of the page's open comment threads, from the anchors in the branch
 * doc: every window and every client that has the branch draws the same marks, live, and
 * a resolved thread's mark goes for everyone. A click on a mark opens its thread.
 */
export const CommentHighlights = Extension.create<{ doc: Y.Doc | null; pageId: string }>({
  name: 'commentHighlights',
  addOptions: () => ({ doc: null, pageId: '' }),
  addProseMirrorPlugins() {
    const { doc, pageId } = this.options;
    if (!doc) return [];
    return [
      new Plugin<DecorationSet>({
        key,
        state: {
          init: () => DecorationSet.empty,
          apply: (tr, set) => (tr.getMeta(key) as DecorationSet | undefined) ?? set.map(tr.mapping, tr.doc),
        },
        props: {
          decorations: (state) => key.getState(state),
          handleClick: (view, pos) => {
            const hit = key.getState(view.state)?.find(pos, pos, (spec) => typeof spec.comment === 'string')[0];
            if (!hit) return false;
            window.dispatchEvent(new CustomEvent(OPEN_COMMENT, { detail: { commentId: (hit.spec as { comment: string }).comment } }));
            // The caret still goes where the writer clicked.
            return false;
          },
        },
        view: (view) => {
          let frame = 0;
          // Read again once the doc settles (a frame later): by then the Yjs binding has caught
          // up with local typing and has drawn remote edits, so positions read from it are current.
          const refresh = () => {
            frame = 0;
            if (view.isDestroyed) return;
            const next = highlights(view, doc, pageId);
            // Marks mapped through the edit are most often where they were read: a second
            // transaction per keystroke would be work for nothing.
            if (sameMarks(key.getState(view.state), next)) return;
            // No `addToHistory: false` here: the Yjs binding would end the writer's undo step at each mark drawn.
            view.dispatch(view.state.tr.setMeta(key, next));
          };
          const schedule = () => {
            frame ||= requestAnimationFrame(refresh);
          };
          const anchors = commentAnchorsMap(doc);
          anchors.observe(schedule);
          schedule();
          return {
            update: (_view, prev) => {
              if (prev.doc !== view.state.doc) schedule();
            },
            destroy: () => {
              cancelAnimationFrame(frame);
              anchors.unobserve(schedule);
            },
          };
        },
      }),
    ];
  },
});
