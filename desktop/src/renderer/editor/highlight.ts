import { Extension } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
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

function decorate(doc: PMNode): DecorationSet {
  const decorations: Decoration[] = [];
  doc.descendants((node, pos) => {
    if (node.type.name !== 'codeBlock') return !node.isTextblock;
    const lang = languageOf(node);
    if (lang)
      for (const [from, to, cls] of runsOf(lang, node.textContent))
        decorations.push(Decoration.inline(pos + 1 + from, pos + 1 + to, { class: cls }));
    return false;
  });
  return DecorationSet.create(doc, decorations);
}

const key = new PluginKey<DecorationSet>('codeHighlight');

/**
 * Code blocks with a known language are coloured as you type. Results are cached by
 * language and text, so a keystroke outside code costs a walk over the blocks, and one
 * inside code re-highlights that block only.
 */
export const CodeHighlight = Extension.create({
  name: 'codeHighlight',
  addProseMirrorPlugins() {
    return [
      new Plugin<DecorationSet>({
        key,
        state: {
          init: (_, state) => decorate(state.doc),
          apply: (tr, old) => (tr.docChanged ? decorate(tr.doc) : old),
        },
        props: { decorations: (state) => key.getState(state) },
      }),
    ];
  },
});
