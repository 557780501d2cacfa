import type { Editor, Range } from '@tiptap/core';
import { PluginKey } from '@tiptap/pm/state';
import { ReactRenderer } from '@tiptap/react';
import Suggestion, { type SuggestionKeyDownProps, type SuggestionOptions, type SuggestionProps } from '@tiptap/suggestion';
import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';

/** One line of an inline suggestion list. */
export interface SuggestItem {
  key: string;
  label: string;
  /** Shown after the label, dimmed (a page's path, a member's email). */
  detail?: string;
}

interface ListProps {
  label: string;
  empty: string;
  items: SuggestItem[];
  command: (item: SuggestItem) => void;
}

interface ListHandle {
  onKeyDown(event: KeyboardEvent): boolean;
}

const SuggestList = forwardRef<ListHandle, ListProps>(function SuggestList({ label, empty, items, command }, ref) {
  const [active, setActive] = useState(0);
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => setActive(0), [items]);
  useEffect(() => {
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [active]);
  useImperativeHandle(ref, () => ({
    onKeyDown(event) {
      const n = Math.max(items.length, 1);
      if (event.key === 'ArrowDown') setActive((a) => (a + 1) % n);
      else if (event.key === 'ArrowUp') setActive((a) => (a - 1 + n) % n);
      else if (event.key === 'Enter' || event.key === 'Tab') {
        const item = items[active];
        if (item) command(item);
        return !!item;
      } else return false;
      return true;
    },
  }));
  return (
    <div className="menu slash-menu" role="listbox" aria-label={label} ref={list}>
      {items.length === 0 && <p className="muted small pad">{empty}</p>}
      {items.map((item, i) => (
        <button
          key={item.key}
          type="button"
          role="option"
          aria-selected={i === active}
          className={`menu-item${i === active ? ' is-active' : ''}`}
          onMouseDown={(e) => e.preventDefault()}
          onMouseMove={() => setActive(i)}
          onClick={() => command(item)}
        >
          <span className="switcher-title">{item.label}</span>
          {item.detail && <span className="switcher-path">{item.detail}</span>}
        </button>
      ))}
    </div>
  );
});

/**
 * A list of choices at the caret, opened by `char` (`[[` pages, `@` members), filtered by
 * what is typed after it: arrows and Enter pick, Escape closes it and leaves the typed
 * text as it is. Not inside code.
 */
export function inlineSuggestion(options: {
  editor: Editor;
  char: string;
  name: string;
  label: string;
  empty: string;
  allowSpaces?: boolean;
  /** Characters the trigger may follow (besides the start of a line); null: any. */
  allowedPrefixes?: string[] | null;
  items: (query: string) => SuggestItem[] | Promise<SuggestItem[]>;
  pick: (editor: Editor, range: Range, item: SuggestItem) => void;
}) {
  const config: SuggestionOptions<SuggestItem, SuggestItem> = {
    editor: options.editor,
    pluginKey: new PluginKey(options.name),
    char: options.char,
    allowSpaces: options.allowSpaces ?? false,
    allowedPrefixes: options.allowedPrefixes === undefined ? [' '] : options.allowedPrefixes,
    allow: ({ state, range }) => !state.doc.resolve(range.from).parent.type.spec.code,
    items: ({ query }) => options.items(query),
    command: ({ editor, range, props }) => options.pick(editor, range, props),
    render: () => {
      let renderer: ReactRenderer<ListHandle, ListProps> | null = null;
      const props = (p: SuggestionProps<SuggestItem, SuggestItem>): ListProps => ({
        label: options.label,
        empty: options.empty,
        items: p.items,
        command: p.command,
      });
      const place = (p: SuggestionProps<SuggestItem, SuggestItem>) => {
        const rect = p.clientRect?.();
        const el = renderer?.element as HTMLElement | undefined;
        if (!rect || !el) return;
        const below = rect.bottom + 6;
        el.style.left = `${Math.round(rect.left)}px`;
        el.style.top =
          window.innerHeight - below < 260
            ? `${Math.round(rect.top - 6 - Math.min(300, el.offsetHeight || 300))}px`
            : `${Math.round(below)}px`;
      };
      const close = () => {
        (renderer?.element as HTMLElement | undefined)?.remove();
        renderer?.destroy();
        renderer = null;
      };
      return {
        onStart: (p) => {
          renderer = new ReactRenderer(SuggestList, { props: props(p), editor: p.editor });
          const el = renderer.element as HTMLElement;
          el.classList.add('slash-menu-host');
          document.body.append(el);
          place(p);
        },
        onUpdate: (p) => {
          renderer?.updateProps(props(p));
          place(p);
        },
        onKeyDown: ({ event }: SuggestionKeyDownProps) => {
          if (event.key === 'Escape') {
            // Only the list closes (the window's Escape would close a dialog or panel too); the text stays.
            if (renderer) event.stopPropagation();
            close();
            return true;
          }
          return renderer?.ref?.onKeyDown(event) ?? false;
        },
        onExit: close,
      };
    },
  };
  return Suggestion(config);
}
