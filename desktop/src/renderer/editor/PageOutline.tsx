import type { Editor } from '@tiptap/core';
import { useEditorState } from '@tiptap/react';
import { useEffect, useRef, useState } from 'react';

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

/** How far below the scroll area's top a heading counts as the one being read (the sticky toolbar is above it). */
const READING_LINE = 96;

/**
 * The heading being read: the last one scrolled past the reading line, or the last of the
 * page once it is scrolled to its end; -1 above the first.
 */
function readingIndex(editor: Editor, headings: Heading[], scroller: HTMLElement): number {
  if (scroller.scrollTop > 0 && scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2) return headings.length - 1;
  const line = scroller.getBoundingClientRect().top + READING_LINE;
  let current = -1;
  headings.forEach((h, i) => {
    const dom = editor.view.nodeDOM(h.pos);
    if (dom instanceof HTMLElement && dom.getBoundingClientRect().top <= line) current = i;
  });
  return current;
}

/** Follows the page's scrolling (once a frame at most) and answers which heading is being read. */
function useReadingHeading(editor: Editor, headings: Heading[]): number {
  const [current, setCurrent] = useState(-1);
  // Read at the next scroll: measuring on every keystroke would cost typing a layout.
  const latest = useRef(headings);
  latest.current = headings;
  const any = headings.length > 0;
  useEffect(() => {
    const scroller = editor.view.dom.closest('.page-scroll');
    if (!(scroller instanceof HTMLElement) || !any) return setCurrent(-1);
    let frame = 0;
    const update = () => {
      frame = 0;
      setCurrent(readingIndex(editor, latest.current, scroller));
    };
    const onScroll = () => {
      frame ||= requestAnimationFrame(update);
    };
    onScroll();
    scroller.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      scroller.removeEventListener('scroll', onScroll);
      cancelAnimationFrame(frame);
    };
  }, [editor, any]);
  return current;
}

/** The page's word count (below it) and the outline of its headings (beside it), the heading being read marked. */
export function PageOutline({ editor }: { editor: Editor }) {
  const { words, selected, headings } = useEditorState({ editor, selector: ({ editor: e }) => summary(e) });
  const reading = useReadingHeading(editor, headings);
  return (
    <>
      {headings.length > 0 && (
        <div className="page-outline-rail">
          <nav className="page-outline" aria-label="Outline">
            <h2>On this page</h2>
            {headings.map((h, i) => (
              <a
                key={`${h.pos}`}
                href={`#h-${h.pos}`}
                className={`outline-item level-${h.level}${i === reading ? ' is-current' : ''}`}
                aria-current={i === reading ? 'location' : undefined}
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
