import type { Editor } from '@tiptap/core';
import { useEditorState } from '@tiptap/react';

interface Heading {
  pos: number;
  level: number;
  text: string;
}

const WORD = /[\p{L}\p{N}]/u;

/** Words as a writer counts them: runs of non-space holding a letter or a digit. */
export function countWords(text: string): number {
  let n = 0;
  for (const token of text.split(/\s+/)) if (WORD.test(token)) n++;
  return n;
}

function summary(editor: Editor): { words: number; selected: number; headings: Heading[] } {
  const { doc, selection } = editor.state;
  const headings: Heading[] = [];
  doc.descendants((node, pos) => {
    if (node.type.name === 'heading') {
      headings.push({ pos, level: Number(node.attrs.level) || 1, text: node.textContent });
      return false;
    }
    return !node.isTextblock;
  });
  const selected = selection.empty ? 0 : countWords(doc.textBetween(selection.from, selection.to, '\n', ' '));
  return { words: countWords(doc.textBetween(0, doc.content.size, '\n', ' ')), selected, headings };
}

/** Scrolls the page to a heading (below the sticky toolbar) and puts the caret at its end. */
function goTo(editor: Editor, heading: Heading) {
  const dom = editor.view.nodeDOM(heading.pos);
  if (dom instanceof HTMLElement) dom.scrollIntoView({ block: 'start' });
  const node = editor.state.doc.nodeAt(heading.pos);
  if (node) editor.commands.setTextSelection(heading.pos + node.nodeSize - 1);
}

/** The page's word count (below it) and the outline of its headings (beside it). */
export function PageOutline({ editor }: { editor: Editor }) {
  const { words, selected, headings } = useEditorState({ editor, selector: ({ editor: e }) => summary(e) });
  return (
    <>
      {headings.length > 0 && (
        <div className="page-outline-rail">
          <nav className="page-outline" aria-label="Outline">
            <h2>On this page</h2>
            {headings.map((h) => (
              <a
                key={`${h.pos}`}
                href={`#h-${h.pos}`}
                className={`outline-item level-${h.level}`}
                onClick={(e) => {
                  e.preventDefault();
                  goTo(editor, h);
                }}
              >
                {h.text || 'Untitled heading'}
              </a>
            ))}
          </nav>
        </div>
      )}
      <footer className="page-footer">
        <span data-testid="word-count">
          {selected > 0 && `${selected} of `}
          {words} {words === 1 ? 'word' : 'words'}
        </span>
      </footer>
    </>
  );
}
