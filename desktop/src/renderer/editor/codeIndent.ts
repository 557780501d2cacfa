import type { Editor } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';

/** Languages written with tabs, and those whose convention is four spaces; the rest indent by two. */
const TABS = new Set(['go', 'makefile', 'make']);
const FOUR = new Set(['python', 'py', 'java', 'kotlin', 'rust', 'c', 'cpp', 'c++', 'csharp', 'cs', 'php', 'swift', 'scala', 'sql']);

export function indentUnit(language: unknown): string {
  const lang = String(language ?? '').toLowerCase();
  if (TABS.has(lang)) return '\t';
  return FOUR.has(lang) ? '    ' : '  ';
}

/** Offsets (into the block's text) of the starts of the lines the range [from, to] touches. */
function lineStarts(text: string, from: number, to: number): number[] {
  let start = text.lastIndexOf('\n', from - 1) + 1;
  const out = [start];
  for (;;) {
    const next = text.indexOf('\n', start);
    if (next < 0 || next + 1 > to || (next + 1 === to && to > from)) break;
    start = next + 1;
    out.push(start);
  }
  return out;
}

/** How many characters of indentation one outdent takes off the line starting at `at`. */
function leadingIndent(text: string, at: number, unit: string): number {
  if (text[at] === '\t') return 1;
  let n = 0;
  while (n < Math.max(unit.length, 2) && text[at + n] === ' ') n++;
  return n;
}

/**
 * Tab and Shift+Tab in a code block: a caret gets indentation where it is; a selection
 * over lines indents (or outdents) each line. Answers false outside a code block, so the
 * key is handled by whatever else applies there.
 */
export function indentCode(editor: Editor, outdent: boolean): boolean {
  const { state } = editor;
  const { selection } = state;
  const { $from, $to } = selection;
  const block = $from.parent;
  if (!block.type.spec.code || !$from.sameParent($to)) return false;
  if (!editor.isEditable) return true;
  const start = $from.start();
  const text = block.textContent;
  const unit = indentUnit(block.attrs.language);
  const tr = state.tr;
  if (!outdent && selection.empty) {
    editor.view.dispatch(tr.insertText(unit, selection.from).scrollIntoView());
    return true;
  }
  const lines = lineStarts(text, $from.pos - start, $to.pos - start);
  // From the last line up, so earlier offsets stay valid.
  for (const at of [...lines].reverse()) {
    if (outdent) {
      const n = leadingIndent(text, at, unit);
      if (n) tr.delete(start + at, start + at + n);
    } else {
      tr.insertText(unit, start + at);
    }
  }
  if (!tr.docChanged) return true;
  if (!selection.empty) {
    const anchorFirst = selection.anchor <= selection.head;
    const from = tr.mapping.map(selection.from, -1);
    const to = tr.mapping.map(selection.to, 1);
    tr.setSelection(TextSelection.create(tr.doc, anchorFirst ? from : to, anchorFirst ? to : from));
  }
  editor.view.dispatch(tr.scrollIntoView());
  return true;
}
