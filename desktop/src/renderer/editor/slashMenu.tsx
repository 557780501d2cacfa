import { Extension, type Editor, type Range } from '@tiptap/core';
import { ReactRenderer } from '@tiptap/react';
import Suggestion, { type SuggestionKeyDownProps, type SuggestionProps } from '@tiptap/suggestion';
import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { Icon } from '../components/Icons';
import { type BlockChoice, filterBlocks, keysLabel } from './blocks';

interface MenuProps {
  items: BlockChoice[];
  command: (choice: BlockChoice) => void;
}

interface MenuHandle {
  onKeyDown(event: KeyboardEvent): boolean;
}

const SlashMenuList = forwardRef<MenuHandle, MenuProps>(function SlashMenuList({ items, command }, ref) {
  const [active, setActive] = useState(0);
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => setActive(0), [items]);
  useEffect(() => {
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [active]);
  useImperativeHandle(ref, () => ({
    onKeyDown(event) {
      if (event.key === 'ArrowDown') {
        setActive((a) => (a + 1) % Math.max(items.length, 1));
        return true;
      }
      if (event.key === 'ArrowUp') {
        setActive((a) => (a - 1 + items.length) % Math.max(items.length, 1));
        return true;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        const choice = items[active];
        if (choice) command(choice);
        return !!choice;
      }
      return false;
    },
  }));
  return (
    <div className="menu slash-menu" role="listbox" aria-label="Insert a block" ref={list}>
      {items.length === 0 && <p className="muted small pad">No block matches.</p>}
      {items.map((item, i) => (
        <button
          key={item.id}
          type="button"
          role="option"
          aria-selected={i === active}
          className={`menu-item${i === active ? ' is-active' : ''}`}
          onMouseDown={(e) => e.preventDefault()}
          onMouseMove={() => setActive(i)}
          onClick={() => command(item)}
        >
          <Icon name={item.icon} size={16} />
          <span className="slash-text">
            <span className="slash-label">{item.label}</span>
            <span className="slash-description">{item.description}</span>
          </span>
          {item.shortcut && (
            <span className="slash-shortcuts">
              {item.shortcut.markdown && <kbd title="Type at the start of a line, then a space">{item.shortcut.markdown}</kbd>}
              {item.shortcut.keys && <kbd>{keysLabel(item.shortcut.keys)}</kbd>}
            </span>
          )}
        </button>
      ))}
    </div>
  );
});

/** Pages for choices that link to one (page references); set by the editor that owns this extension. */
export interface SlashMenuOptions {
  pages: () => readonly { id: string; title: string }[];
}

/**
 * Typing `/` at the start of a line or after a space opens a menu of every block; more
 * letters filter it, arrows and Enter pick, Escape (or a space) closes it. Not inside code.
 */
export const SlashMenu = Extension.create<SlashMenuOptions>({
  name: 'slashMenu',
  addOptions() {
    return { pages: () => [] };
  },
  addProseMirrorPlugins() {
    const pages = this.options.pages;
    return [
      Suggestion<BlockChoice, BlockChoice>({
        editor: this.editor,
        char: '/',
        allow: ({ state, range }) => !state.doc.resolve(range.from).parent.type.spec.code,
        items: ({ editor, query }) => filterBlocks(query).filter((c) => blockAvailable(editor, c)),
        command: ({ editor, range, props }: { editor: Editor; range: Range; props: BlockChoice }) => {
          editor.chain().focus().deleteRange(range).run();
          void props.run(editor, pages());
        },
        render: () => {
          let renderer: ReactRenderer<MenuHandle, MenuProps> | null = null;
          const place = (props: SuggestionProps<BlockChoice, BlockChoice>) => {
            const rect = props.clientRect?.();
            const el = renderer?.element as HTMLElement | undefined;
            if (!rect || !el) return;
            const below = rect.bottom + 6;
            const room = window.innerHeight - below;
            el.style.left = `${Math.round(rect.left)}px`;
            el.style.top = room < 260 ? `${Math.round(rect.top - 6 - Math.min(300, el.offsetHeight || 300))}px` : `${Math.round(below)}px`;
          };
          return {
            onStart: (props) => {
              renderer = new ReactRenderer(SlashMenuList, { props: { items: props.items, command: props.command }, editor: props.editor });
              const el = renderer.element as HTMLElement;
              el.classList.add('slash-menu-host');
              document.body.append(el);
              place(props);
            },
            onUpdate: (props) => {
              renderer?.updateProps({ items: props.items, command: props.command });
              place(props);
            },
            onKeyDown: ({ event }: SuggestionKeyDownProps) => {
              if (event.key === 'Escape') {
                // Only the menu closes: the window's Escape would close a dialog or panel too.
                if (renderer) event.stopPropagation();
                renderer?.destroy();
                (renderer?.element as HTMLElement | undefined)?.remove();
                renderer = null;
                return true;
              }
              return renderer?.ref?.onKeyDown(event) ?? false;
            },
            onExit: () => {
              (renderer?.element as HTMLElement | undefined)?.remove();
              renderer?.destroy();
              renderer = null;
            },
          };
        },
      }),
    ];
  },
});

/** A choice whose node this editor's schema lacks is left out. */
function blockAvailable(editor: Editor, choice: BlockChoice): boolean {
  return choice.node in editor.schema.nodes;
}
