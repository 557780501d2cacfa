import { Extension } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, type Transaction } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { common, createLowlight } from 'lowlight';

/** highlight.js's common languages (bash, js, ts, json, python, yaml, …) through lowlight. */
const lowlight = createLowlight(common);

type HastNode = { type: string; value?: string; properties?: { className?: string[] }; children?: HastNode[] };

/** Class runs of a highlighted text: [from, to, classes] with offsets into the text. */
type Run = [number, number, string];

const cache = new Map<string, Run[]>();
const CACHE_MAX = 500;

function runsOf(language: string, text: string): Run[] {
  const key = `${language}\u0000${text}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const runs: Run[] = [];
  let offset = 0;
  const walk = (nodes: HastNode[], classes: string[]) => {
    for (const node of nodes) {
      if (node.type === 'text') {
        const len = node.value?.length ?? 0;
        if (classes.length && len) runs.push([offset, offset + len, classes.join(' ')]);
        offset += len;
      } else if (node.children) {
        walk(node.children, [...classes, ...(node.properties?.className ?? [])]);
      }
    }
  };
  walk(lowlight.highlight(language, text).children as HastNode[], []);
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(key, runs);
  return runs;
}

function languageOf(node: PMNode): string | null {
  const lang = String(node.attrs.language ?? '')
    .trim()
    .toLowerCase();
  return lang && lowlight.registered(lang) ? lang : null;
}

function blockDecorations(node: PMNode, pos: number): Decoration[] {
  const lang = languageOf(node);
  if (!lang) return [];
  return runsOf(lang, node.textContent).map(([from, to, cls]) => Decoration.inline(pos + 1 + from, pos + 1 + to, { class: cls }));
}

function decorate(doc: PMNode): DecorationSet {
  const decorations: Decoration[] = [];
  doc.descendants((node, pos) => {
    if (node.type.name !== 'codeBlock') return !node.isTextblock;
    decorations.push(...blockDecorations(node, pos));
    return false;
  });
  return DecorationSet.create(doc, decorations);
}

/**
 * After an edit, only the code blocks the edit touched are highlighted again; every other
 * decoration is mapped through the change. A keystroke in a paragraph of a long page then
 * costs next to nothing here.
 */
function redecorate(tr: Transaction, old: DecorationSet): DecorationSet {
  let set = old.map(tr.mapping, tr.doc);
  const touched = new Map<number, PMNode>();
  tr.mapping.maps.forEach((map, i) => {
    const rest = tr.mapping.slice(i + 1);
    map.forEach((_oldStart, _oldEnd, newStart, newEnd) => {
      // The changed range after this step, carried to the final document.
      const from = Math.max(0, rest.map(newStart, -1) - 1);
      const to = Math.min(tr.doc.content.size, rest.map(newEnd, 1) + 1);
      tr.doc.nodesBetween(from, to, (node, pos) => {
        if (node.type.name !== 'codeBlock') return !node.isTextblock;
        touched.set(pos, node);
        return false;
      });
    });
  });
  for (const [pos, node] of touched) set = set.remove(set.find(pos, pos + node.nodeSize)).add(tr.doc, blockDecorations(node, pos));
  return set;
}

const key = new PluginKey<DecorationSet>('codeHighlight');

/**
 * Code blocks with a known language are coloured as you type. Results are cached by
 * language and text, and an edit re-highlights only the code blocks it touched.
 */
export const CodeHighlight = Extension.create({
  name: 'codeHighlight',
  addProseMirrorPlugins() {
    return [
      new Plugin<DecorationSet>({
        key,
        state: {
          init: (_, state) => decorate(state.doc),
          apply: (tr, old) => (tr.docChanged ? redecorate(tr, old) : old),
        },
        props: { decorations: (state) => key.getState(state) },
      }),
    ];
  },
});
