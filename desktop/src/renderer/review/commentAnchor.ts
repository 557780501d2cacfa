import { TextSelection } from '@tiptap/pm/state';
import { activeEditor } from '../editor/activeEditor';

/** Longest quote kept with a comment: enough to find the passage again. */
const MAX_QUOTE = 280;

/** The text selected in the page editor, or null. */
export function selectedText(): string | null {
  const editor = activeEditor();
  if (!editor) return null;
  const { from, to, empty } = editor.state.selection;
  if (empty) return null;
  const text = editor.state.doc.textBetween(from, to, ' ', ' ').replace(/\s+/g, ' ').trim();
  return text ? text.slice(0, MAX_QUOTE) : null;
}

/**
 * A comment on a passage carries the passage as a leading quote line: `> passage` then
 * the comment. Page bodies have no block ids to point at, and a quote survives every
 * edit around it, reads well on the server and in other clients, and is found again by
 * its text.
 */
export function withQuote(quote: string | null, markdown: string): string {
  return quote ? `> ${quote.replace(/\n/g, ' ')}\n\n${markdown}` : markdown;
}

export function splitQuote(markdown: string): { quote: string | null; text: string } {
  const m = markdown.match(/^> ([^\n]+)\n\n([\s\S]*)$/);
  return m ? { quote: m[1] ?? null, text: m[2] ?? '' } : { quote: null, text: markdown };
}

/** Selects the quoted passage in the page (the first place its text appears); false when it is gone. */
export function revealQuote(quote: string): boolean {
  const editor = activeEditor();
  if (!editor) return false;
  const doc = editor.state.doc;
  let found: { from: number; to: number } | null = null;
  // Text blocks one by one: a passage within one block is found exactly.
  doc.descendants((node, pos) => {
    if (found) return false;
    if (!node.isTextblock) return true;
    const text = node.textBetween(0, node.content.size, ' ', ' ').replace(/\s+/g, ' ');
    const at = text.indexOf(quote);
    if (at >= 0) found = { from: pos + 1 + at, to: pos + 1 + at + quote.length };
    return false;
  });
  if (!found) return false;
  const { from, to } = found;
  editor.view.dispatch(editor.state.tr.setSelection(TextSelection.create(doc, from, to)).scrollIntoView());
  editor.view.focus();
  return true;
}

/** Asks the window to open the comments panel on the current selection. */
export const COMMENT_ON_SELECTION = 'quire:comment-on-selection';
