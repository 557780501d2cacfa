import { type NodeJSON, headingAnchors } from '@quire/shared/content/index';

/** What a comment shows of the node it targets. */
export const PREVIEW_LENGTH = 200;

/** Blocks a comment can target: the ones a reader sees as one piece of text or media. */
const TARGETABLE = new Set([
  'paragraph',
  'heading',
  'codeBlock',
  'image',
  'file',
  'embed',
  'contentRef',
  'detailsSummary',
  'tableCell',
  'tableHeader',
]);

function textOf(node: NodeJSON): string {
  if (node.type === 'text') return node.text ?? '';
  if (node.type === 'hardBreak') return ' ';
  const attrs = node.attrs ?? {};
  const own = ['alt', 'caption', 'url', 'href', 'title', 'src'].map((k) => attrs[k]).find((v) => typeof v === 'string' && v) as
    string | undefined;
  const inner = (node.content ?? []).map(textOf).join(node.type === 'tableCell' || node.type === 'tableHeader' ? ' ' : '');
  return inner || own || '';
}

/** FNV-1a, 32 bits, as 8 hex digits: short, stable and the same in every runtime. */
function fingerprint(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/**
 * Ids of the nodes of a page body a comment may target, with their text. Page bodies
 * carry no stored node ids, so ids derive from content, the way heading anchors do: a
 * heading's id is its anchor (`getting-started`), any other block's is its type and a
 * fingerprint of its text (`paragraph-1a2b3c4d`), suffixed `-2`, `-3`… when the same
 * text repeats. A node keeps its id while its text is unchanged; once it is edited away
 * or deleted, comments on it read as outdated.
 */
export function bodyNodes(body: NodeJSON): Map<string, string> {
  const out = new Map<string, string>();
  const anchors = headingAnchors(body);
  let heading = 0;
  const add = (id: string, text: string) => {
    let unique = id;
    for (let n = 2; out.has(unique); n++) unique = `${id}-${n}`;
    out.set(unique, text.slice(0, PREVIEW_LENGTH));
  };
  const walk = (node: NodeJSON, depth: number): void => {
    if (depth > 128) return;
    if (node.type === 'heading') {
      const anchor = anchors[heading++];
      if (anchor) add(anchor.anchor, anchor.title);
      return;
    }
    if (node.type && TARGETABLE.has(node.type)) {
      const text = textOf(node);
      add(`${node.type}-${fingerprint(`${node.type}\u0000${text}`)}`, text);
    }
    for (const child of node.content ?? []) walk(child, depth + 1);
  };
  walk(body, 0);
  return out;
}

/** The id a block would get, for clients that compute it from a body they hold. */
export function nodeIdOf(node: NodeJSON): string {
  return `${node.type}-${fingerprint(`${node.type}\u0000${textOf(node)}`)}`;
}
