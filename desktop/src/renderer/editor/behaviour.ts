import { type Editor, Extension, InputRule, markInputRule, textblockTypeInputRule, wrappingInputRule } from '@tiptap/core';
import { NodeSelection, TextSelection } from '@tiptap/pm/state';
import { moveBlock } from './blockMove';
import { indentCode } from './codeIndent';
import { arrowDownOut, enterOutOfCode } from './leaveBlocks';
import { moveToCell, tableCellAt } from './tables';

/**
 * Markdown shortcuts and keyboard commands. Typed markdown turns into blocks as you type
 * (`# `, `- `, `1. `, `[ ] `, `> `, "```", `---`, `**bold**`…), the way writers coming
 * from markdown expect.
 */
export const WritingShortcuts = Extension.create({
  name: 'writingShortcuts',

  addInputRules() {
    const { schema } = this.editor;
    const n = schema.nodes;
    const m = schema.marks;
    const rules: InputRule[] = [];
    if (n.heading)
      rules.push(
        textblockTypeInputRule({ find: /^(#{1,4})\s$/, type: n.heading, getAttributes: (match) => ({ level: match[1]?.length ?? 1 }) }),
      );
    if (n.bulletList) rules.push(wrappingInputRule({ find: /^\s*([-+*])\s$/, type: n.bulletList }));
    if (n.orderedList) {
      rules.push(
        wrappingInputRule({
          find: /^(\d+)\.\s$/,
          type: n.orderedList,
          getAttributes: (match) => ({ start: Number(match[1]) || 1 }),
          joinPredicate: (match, node) => node.childCount + (node.attrs.start as number) === Number(match[1]),
        }),
      );
    }
    if (n.taskItem) {
      rules.push(
        wrappingInputRule({
          find: /^\s*\[([( |x])?\]\s$/,
          type: n.taskItem,
          getAttributes: (match) => ({ checked: match[match.length - 1] === 'x' }),
        }),
      );
    }
    if (n.blockquote) rules.push(wrappingInputRule({ find: /^\s*>\s$/, type: n.blockquote }));
    if (n.codeBlock)
      rules.push(
        textblockTypeInputRule({
          find: /^```([a-z0-9+#-]+)?[\s\n]$/i,
          type: n.codeBlock,
          getAttributes: (match) => ({ language: match[1] ?? null }),
        }),
      );
    if (n.horizontalRule) {
      const hr = n.horizontalRule;
      rules.push(
        new InputRule({
          find: /^(?:---|___|\*\*\*)$/,
          handler: ({ state, range }) => {
            const $from = state.doc.resolve(range.from);
            if ($from.parent.type.name !== 'paragraph' || $from.parent.textContent.length !== range.to - range.from) return null;
            const start = $from.before();
            state.tr.replaceWith(start, $from.after(), [hr.create(), schema.nodes.paragraph!.create()]);
            state.tr.setSelection(TextSelection.near(state.tr.doc.resolve(start + 2)));
          },
        }),
      );
    }
    if (m.bold) {
      rules.push(markInputRule({ find: /(?:^|\s)(\*\*(?!\s+\*\*)((?:[^*]+))\*\*(?!\s+\*\*))$/, type: m.bold }));
      rules.push(markInputRule({ find: /(?:^|\s)(__(?!\s+__)((?:[^_]+))__(?!\s+__))$/, type: m.bold }));
    }
    if (m.italic) {
      rules.push(markInputRule({ find: /(?:^|\s)(\*(?!\s+\*)((?:[^*]+))\*(?!\s+\*))$/, type: m.italic }));
      rules.push(markInputRule({ find: /(?:^|\s)(_(?!\s+_)((?:[^_]+))_(?!\s+_))$/, type: m.italic }));
    }
    if (m.code) rules.push(markInputRule({ find: /(^|[^`])`([^`]+)`(?!`)$/, type: m.code }));
    if (m.strike) rules.push(markInputRule({ find: /(?:^|\s)(~~(?!\s+~~)((?:[^~]+))~~(?!\s+~~))$/, type: m.strike }));
    return rules;
  },

  addKeyboardShortcuts() {
    const inTable = () => !!tableCellAt(this.editor.state.selection.$from);
    const listItem = () => (this.editor.isActive('taskItem') ? 'taskItem' : 'listItem');
    return {
      'Mod-b': () => this.editor.commands.toggleMark('bold'),
      'Mod-i': () => this.editor.commands.toggleMark('italic'),
      'Mod-e': () => this.editor.commands.toggleMark('code'),
      'Mod-Shift-s': () => this.editor.commands.toggleMark('strike'),
      'Mod-Shift-x': () => this.editor.commands.toggleMark('strike'),
      'Mod-Alt-0': () => this.editor.commands.setNode('paragraph'),
      'Mod-Alt-1': () => this.editor.commands.toggleNode('heading', 'paragraph', { level: 1 }),
      'Mod-Alt-2': () => this.editor.commands.toggleNode('heading', 'paragraph', { level: 2 }),
      'Mod-Alt-3': () => this.editor.commands.toggleNode('heading', 'paragraph', { level: 3 }),
      'Mod-Shift-7': () => this.editor.commands.toggleList('orderedList', 'listItem'),
      'Mod-Shift-8': () => this.editor.commands.toggleList('bulletList', 'listItem'),
      'Mod-Shift-9': () => this.editor.commands.toggleList('taskList', 'taskItem'),
      'Mod-Shift-b': () => this.editor.commands.toggleWrap('blockquote'),
      'Mod-Alt-c': () => this.editor.commands.toggleNode('codeBlock', 'paragraph'),
      'Shift-Enter': () =>
        this.editor.commands.first(({ commands }) => [() => commands.exitCode(), () => commands.insertContent({ type: 'hardBreak' })]),
      Enter: () => {
        if (enterOutOfCode(this.editor)) return true;
        if (this.editor.isActive('listItem')) return this.editor.commands.splitListItem('listItem');
        if (this.editor.isActive('taskItem')) return this.editor.commands.splitListItem('taskItem');
        return false;
      },
      ArrowDown: () => arrowDownOut(this.editor),
      Escape: () => deselectNode(this.editor),
      'Alt-Shift-ArrowUp': () => moveBlock(this.editor, -1),
      'Alt-Shift-ArrowDown': () => moveBlock(this.editor, 1),
      // Tab never leaves the page: the browser would move the focus to the next control (a
      // code block's language list, which then takes the keys typed next as a choice).
      Tab: () => {
        if (focusSelectedNodeControls(this.editor)) return true;
        if (indentCode(this.editor, false)) return true;
        if (inTable()) return moveToCell(this.editor, 1);
        if (this.editor.isActive('listItem') || this.editor.isActive('taskItem')) this.editor.commands.sinkListItem(listItem());
        return true;
      },
      'Shift-Tab': () => {
        if (indentCode(this.editor, true)) return true;
        if (inTable()) return moveToCell(this.editor, -1);
        if (this.editor.isActive('listItem') || this.editor.isActive('taskItem')) this.editor.commands.liftListItem(listItem());
        return true;
      },
    };
  },
});

/**
 * Tab on a selected block that has its own controls (an image's size buttons) moves the
 * focus to them, so they are reachable from the keyboard; elsewhere Tab stays in the page.
 */
/** Escape on a selected block (an image, a divider) lets it go: the caret goes just after it, the block stays. */
function deselectNode(editor: Editor): boolean {
  const { selection, doc } = editor.state;
  if (!(selection instanceof NodeSelection)) return false;
  const after = TextSelection.near(doc.resolve(selection.to));
  editor.view.dispatch(editor.state.tr.setSelection(after));
  return true;
}

function focusSelectedNodeControls(editor: Editor): boolean {
  const { selection } = editor.state;
  if (!(selection instanceof NodeSelection)) return false;
  const dom = editor.view.nodeDOM(selection.from);
  const control = dom instanceof HTMLElement ? dom.querySelector<HTMLElement>('.qe-image-sizes button') : null;
  control?.focus();
  return !!control;
}
