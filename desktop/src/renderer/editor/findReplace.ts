import { type Editor, Extension } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import { type EditorState, Plugin, PluginKey, TextSelection } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';

/**
 * Find and replace in the page: every match of the query (case-insensitive) is drawn
 * highlighted, one of them is the current one (selected and scrolled to). Replacing all
 * is one transaction, so one undo step.
 */

export interface Match {
  from: number;
  to: number;
}

interface FindState {
  query: string;
  matches: Match[];
  current: number;
  decorations: DecorationSet;
}

type FindMeta = { query: string; current?: number } | { current: number };

export const findKey = new PluginKey<FindState>('findInPage');

/** Matches inside each textblock; an inline node (an image, a break) counts as one character no query matches. */
export function findMatches(doc: PMNode, query: string): Match[] {
  if (!query) return [];
  const needle = query.toLocaleLowerCase();
  const out: Match[] = [];
  doc.descendants((node, pos) => {
    if (!node.isTextblock) return true;
    let text = '';
    node.forEach((child) => {
      text += child.isText ? (child.text ?? '') : '\ufffc'.repeat(child.nodeSize);
    });
    const lower = text.toLocaleLowerCase();
    // Lower-casing that changes a text's length would shift positions: match exactly then.
    const [hay, pin] = lower.length === text.length ? [lower, needle] : [text, query];
    for (let at = hay.indexOf(pin); at >= 0; at = hay.indexOf(pin, at + pin.length)) {
      out.push({ from: pos + 1 + at, to: pos + 1 + at + pin.length });
    }
    return false;
  });
  return out;
}

function decorate(doc: PMNode, matches: Match[], current: number): DecorationSet {
  if (matches.length === 0) return DecorationSet.empty;
  return DecorationSet.create(
    doc,
    matches.map((m, i) => Decoration.inline(m.from, m.to, { class: i === current ? 'find-match is-current' : 'find-match' })),
  );
}

function stateOf(doc: PMNode, query: string, current: number): FindState {
  const matches = findMatches(doc, query);
  const at = matches.length === 0 ? -1 : Math.max(0, Math.min(current, matches.length - 1));
  return { query, matches, current: at, decorations: decorate(doc, matches, at) };
}

export const FindInPage = Extension.create({
  name: 'findInPage',
  addProseMirrorPlugins() {
    return [
      new Plugin<FindState>({
        key: findKey,
        state: {
          init: () => ({ query: '', matches: [], current: -1, decorations: DecorationSet.empty }),
          apply(tr, prev) {
            const meta = tr.getMeta(findKey) as FindMeta | undefined;
            if (meta) return stateOf(tr.doc, 'query' in meta ? meta.query : prev.query, meta.current ?? prev.current);
            if (tr.docChanged && prev.query) return stateOf(tr.doc, prev.query, prev.current);
            return prev;
          },
        },
        props: { decorations: (state) => findKey.getState(state)?.decorations },
      }),
    ];
  },
});

export function findState(state: EditorState): FindState | undefined {
  return findKey.getState(state);
}

/** Selects the current match and scrolls to it, without taking the focus from the find bar. */
function reveal(editor: Editor) {
  const s = findState(editor.state);
  const m = s?.matches[s.current];
  if (!m) return;
  editor.view.dispatch(editor.state.tr.setSelection(TextSelection.create(editor.state.doc, m.from, m.to)).scrollIntoView());
}

/** A new query: the current match is the first at or after the caret. */
export function setQuery(editor: Editor, query: string): void {
  const caret = editor.state.selection.from;
  const matches = findMatches(editor.state.doc, query);
  const after = matches.findIndex((m) => m.from >= caret);
  editor.view.dispatch(editor.state.tr.setMeta(findKey, { query, current: after < 0 ? 0 : after }));
  reveal(editor);
}

export function step(editor: Editor, dir: 1 | -1): void {
  const s = findState(editor.state);
  if (!s || s.matches.length === 0) return;
  const n = s.matches.length;
  editor.view.dispatch(editor.state.tr.setMeta(findKey, { current: (s.current + dir + n) % n }));
  reveal(editor);
}

export function replaceCurrent(editor: Editor, text: string): void {
  const s = findState(editor.state);
  const m = s?.matches[s.current];
  if (!s || !m) return;
  const tr = editor.state.tr;
  if (text) tr.insertText(text, m.from, m.to);
  else tr.delete(m.from, m.to);
  // The next match is the first after the new text (which may hold the query itself).
  const next = findMatches(tr.doc, s.query).findIndex((x) => x.from >= m.from + text.length);
  editor.view.dispatch(tr.setMeta(findKey, { current: Math.max(next, 0) }));
  reveal(editor);
}

export function replaceAll(editor: Editor, text: string): void {
  const s = findState(editor.state);
  if (!s || s.matches.length === 0) return;
  const tr = editor.state.tr;
  for (const m of [...s.matches].reverse()) {
    if (text) tr.insertText(text, m.from, m.to);
    else tr.delete(m.from, m.to);
  }
  editor.view.dispatch(tr.setMeta(findKey, { current: 0 }));
}

export function clearFind(editor: Editor): void {
  if (!editor.isDestroyed) editor.view.dispatch(editor.state.tr.setMeta(findKey, { query: '', current: 0 }));
}
