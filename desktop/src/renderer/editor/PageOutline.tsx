import type { Editor } from '@tiptap/core';
import { useEffect, useState } from 'react';

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

interface Summary {
  words: number;
  selected: number;
  headings: Heading[];
}

function headingsOf(editor: Editor): Heading[] {
  const headings: Heading[] = [];
  editor.state.doc.descendants((node, pos) => {
    if (node.type.name === 'heading') {
      headings.push({ pos, level: Number(node.attrs.level) || 1, text: node.textContent });
      return false;
    }
    return !node.isTextblock;
  });
  return headings;
}

function summary(editor: Editor): Summary {
  const { doc, selection } = editor.state;
  const selected = selection.empty ? 0 : countWords(doc.textBetween(selection.from, selection.to, '\n', ' '));
  return { words: countWords(doc.textBetween(0, doc.content.size, '\n', ' ')), selected, headings: headingsOf(editor) };
}

const sameSummary = (a: Summary, b: Summary) =>
  a.words === b.words &&
  a.selected === b.selected &&
  a.headings.length === b.headings.length &&
  a.headings.every((h, i) => h.level === b.headings[i]?.level && h.text === b.headings[i]?.text);

/** How long a count may lag behind the typing when the window is never idle. */
const IDLE_TIMEOUT_MS = 300;

/**
 * The summary, read again once the window is idle after the edits and selection changes
 * that follow one another: walking the whole page for every keystroke would cost a long
 * page a few milliseconds per key, for a count nobody reads mid-word.
 */
function useIdleSummary(editor: Editor): Summary {
  const [current, setCurrent] = useState(() => summary(editor));
  useEffect(() => {
    let pending: number | null = null;
    const read = () => {
      pending = null;
      if (editor.isDestroyed) return;
      const next = summary(editor);
      setCurrent((prev) => (sameSummary(prev, next) ? prev : next));
    };
    const schedule = () => {
      pending ??= requestIdleCallback(read, { timeout: IDLE_TIMEOUT_MS });
    };
    editor.on('transaction', schedule);
    schedule();
    return () => {
      editor.off('transaction', schedule);
      if (pending !== null) cancelIdleCallback(pending);
    };
  }, [editor]);
  return current;
}

/**
 * Scrolls the page to the `index`-th heading (below the sticky toolbar) and puts the caret
 * at its end; read from the doc at the click, as the outline may lag the typing a little.
 */
function goTo(editor: Editor, index: number) {
  const heading = headingsOf(editor)[index];
  if (!heading) return;
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
function readingIndex(editor: Editor, scroller: HTMLElement): number {
  const headings = headingsOf(editor);
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
  // Read at the next scroll, from the page as it is then: measuring on every keystroke would cost typing a layout.
  const any = headings.length > 0;
  useEffect(() => {
    const scroller = editor.view.dom.closest('.page-scroll');
    if (!(scroller instanceof HTMLElement) || !any) return setCurrent(-1);
    let frame = 0;
    const update = () => {
      frame = 0;
      setCurrent(readingIndex(editor, scroller));
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
  const { words, selected, headings } = useIdleSummary(editor);
  const reading = useReadingHeading(editor, headings);
  return (
    <>
      {headings.length > 0 && (
        <div className="page-outline-rail">
          <nav className="page-outline" aria-label="Outline">
            <h2>On this page</h2>
            {headings.map((h, i) => (
              <a
                key={i}
                href={`#h-${i}`}
                className={`outline-item level-${h.level}${i === reading ? ' is-current' : ''}`}
                aria-current={i === reading ? 'location' : undefined}
                onClick={(e) => {
                  e.preventDefault();
                  goTo(editor, i);
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
