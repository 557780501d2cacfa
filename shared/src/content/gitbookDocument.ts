import type { Mark, Node as PMNode } from 'prosemirror-model';
import { isRecord } from './json';
import { toBodyNode } from './normalize';
import { pageTarget, parseTarget } from './targets';

/** GitBook's API "Document": the rich-text JSON of `format=document` reads and change request descriptions. */
export interface GitbookDocument {
  object: 'document';
  data: { schemaVersion: number; [key: string]: unknown };
  nodes: GitbookBlock[];
}

export interface GitbookBlock {
  object: 'block';
  type: string;
  key: string;
  isVoid?: boolean;
  data: Record<string, unknown>;
  /** `id`: a heading's anchor, as GitBook stores it */
  meta?: { id?: string };
  nodes: GitbookNode[];
}

export interface GitbookInline {
  object: 'inline';
  type: string;
  key: string;
  isVoid?: boolean;
  data: Record<string, unknown>;
  nodes: GitbookNode[];
}

export interface GitbookText {
  object: 'text';
  key: string;
  leaves: GitbookLeaf[];
}

export interface GitbookLeaf {
  object: 'leaf';
  text: string;
  marks: { object: 'mark'; type: string; data: Record<string, unknown> }[];
}

export type GitbookNode = GitbookBlock | GitbookInline | GitbookText;

/** A reference as GitBook writes one in `data.ref`. */
export type GitbookRef =
  | { kind: 'url'; url: string }
  | { kind: 'page'; page: string; anchor?: string }
  | { kind: 'anchor'; anchor: string }
  | { kind: 'file'; file: string };

/** Written as `data.schemaVersion`; raise it when the shape written here changes, so readers can tell. */
export const GITBOOK_DOCUMENT_SCHEMA_VERSION = 1;

const MARK_NAMES: Record<string, string> = { bold: 'bold', italic: 'italic', code: 'code', strike: 'strikethrough' };
const LIST_TYPES: Record<string, string> = { bulletList: 'list-unordered', orderedList: 'list-ordered', taskList: 'list-tasks' };
const SIMPLE_BLOCKS: Record<string, string> = {
  blockquote: 'blockquote',
  tabs: 'tabs',
  stepper: 'stepper',
  step: 'stepper-step',
  table: 'table',
  tableRow: 'table-row',
};

export function targetToRef(target: string): GitbookRef {
  const parsed = parseTarget(target);
  switch (parsed.kind) {
    case 'page':
      return parsed.anchor ? { kind: 'page', page: parsed.pageId, anchor: parsed.anchor } : { kind: 'page', page: parsed.pageId };
    case 'file':
      return { kind: 'file', file: parsed.fileId };
    case 'anchor':
      return { kind: 'anchor', anchor: parsed.anchor };
    default:
      return { kind: 'url', url: target };
  }
}

export function refToTarget(ref: unknown): string {
  if (!isRecord(ref)) return '';
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  switch (ref.kind) {
    case 'page':
      return text(ref.page) ? pageTarget(text(ref.page), text(ref.anchor) || null) : '';
    case 'file':
      return text(ref.file) ? `file:${text(ref.file)}` : '';
    case 'anchor':
      return text(ref.anchor) ? `#${text(ref.anchor)}` : '';
    default:
      return text(ref.url);
  }
}

/**
 * A body as a GitBook Document. Blocks GitBook has use its names and `data` fields
 * (`heading-2`, `hint`, `code` + `code-line`, `images`, `expandable`…); the rest use
 * names of the same style carrying every attribute, so the conversion back is lossless.
 * Keys are positions in the tree, so an unchanged body always reads the same.
 */
export function bodyToGitbookDocument(body: unknown): GitbookDocument {
  const doc = toBodyNode(body);
  return { object: 'document', data: { schemaVersion: GITBOOK_DOCUMENT_SCHEMA_VERSION }, nodes: blocksOf(doc, 'b') };
}

function blocksOf(parent: PMNode, key: string): GitbookBlock[] {
  return parent.children.map((child, i) => toBlock(child, `${key}${i}`));
}

function block(type: string, key: string, data: Record<string, unknown>, nodes: GitbookNode[], isVoid = false): GitbookBlock {
  return isVoid ? { object: 'block', type, key, isVoid, data, nodes } : { object: 'block', type, key, data, nodes };
}

function toBlock(node: PMNode, key: string): GitbookBlock {
  const attrs = node.attrs;
  const children = (): GitbookBlock[] => blocksOf(node, `${key}.`);
  switch (node.type.name) {
    case 'paragraph':
      return block('paragraph', key, {}, inlineNodes(node, key));
    case 'heading': {
      const heading = block(`heading-${attrs.level}`, key, {}, inlineNodes(node, key));
      return attrs.id ? { ...heading, meta: { id: attrs.id } } : heading;
    }
    case 'htmlBlock':
      return block('html', key, { html: attrs.html }, [], true);
    case 'math':
      return block('math', key, { formula: attrs.tex }, [], true);
    case 'columns':
      return block('columns', key, {}, children());
    case 'column':
      return block('column', key, compact({ width: attrs.width }), children());
    case 'updates':
      return block('updates', key, {}, children());
    case 'update':
      return block('update', key, compact({ date: attrs.date, title: attrs.title }), children());
    case 'openapiOperation':
      return block(
        'openapi-operation',
        key,
        compact({ spec: attrs.spec, src: attrs.src, operation: { path: attrs.path, method: attrs.method } }),
        [],
        true,
      );
    case 'reusableContent':
      return block(
        'reusable-content',
        key,
        compact({
          ref: attrs.reusableContentId ? { kind: 'reusable-content', reusableContent: attrs.reusableContentId } : null,
          src: attrs.src,
        }),
        [],
        true,
      );
    case 'bulletList':
    case 'taskList':
      return block(LIST_TYPES[node.type.name] as string, key, {}, children());
    case 'orderedList':
      return block('list-ordered', key, attrs.start === 1 ? {} : { start: attrs.start }, children());
    case 'listItem':
      return block('list-item', key, {}, children());
    case 'taskItem':
      return block('list-item', key, { checked: attrs.checked }, children());
    case 'codeBlock':
      return block(
        'code',
        key,
        compact({
          syntax: attrs.language,
          title: attrs.title,
          lineNumbers: attrs.lineNumbers || null,
          overflow: attrs.wrap ? 'wrap' : null,
        }),
        node.textContent.split('\n').map((line, i) => block('code-line', `${key}.${i}`, {}, [textNode(`${key}.${i}t`, line)])),
      );
    case 'hint':
      return block('hint', key, { style: attrs.style }, children());
    case 'tableHeader':
    case 'tableCell':
      return block(node.type.name === 'tableHeader' ? 'table-header' : 'table-cell', key, compact({ align: attrs.align }), children());
    case 'image':
      return block('images', key, {}, [
        block(
          'image',
          `${key}.0`,
          compact({
            ref: targetToRef(attrs.src),
            refDark: attrs.srcDark ? targetToRef(attrs.srcDark) : null,
            alt: attrs.alt,
            caption: attrs.caption,
            width: attrs.width,
          }),
          [],
          true,
        ),
      ]);
    case 'file':
      return block(
        'file',
        key,
        compact({ ref: attrs.fileId ? { kind: 'file', file: attrs.fileId } : targetToRef(attrs.src ?? ''), caption: attrs.caption }),
        [],
        true,
      );
    case 'horizontalRule':
      return block('divider', key, {}, [], true);
    case 'tab':
      return block('tabs-item', key, { title: attrs.title }, children());
    case 'details':
      return block('expandable', key, {}, [
        block('expandable-title', `${key}.0`, {}, [
          block('paragraph', `${key}.0.0`, {}, [textNode(`${key}.0.0t`, node.child(0).textContent)]),
        ]),
        block('expandable-body', `${key}.1`, {}, blocksOf(node.child(1), `${key}.1.`)),
      ]);
    case 'embed':
      return block('embed', key, compact({ url: attrs.url, caption: attrs.caption }), [], true);
    case 'contentRef':
      return block('content-ref', key, compact({ ref: targetToRef(attrs.href), title: attrs.title }), [], true);
    default:
      return block(SIMPLE_BLOCKS[node.type.name] ?? node.type.name, key, {}, children());
  }
}

function compact(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([, value]) => value !== null && value !== undefined && value !== ''));
}

function textNode(key: string, text: string, marks: readonly Mark[] = []): GitbookText {
  return { object: 'text', key, leaves: [leaf(text, marks)] };
}

function leaf(text: string, marks: readonly Mark[]): GitbookLeaf {
  return {
    object: 'leaf',
    text,
    marks: marks
      .filter((mark) => mark.type.name !== 'link')
      .map((mark) => ({ object: 'mark', type: MARK_NAMES[mark.type.name] ?? mark.type.name, data: {} })),
  };
}

/** Inline content: runs of text become text nodes of leaves, linked runs `link` inlines, breaks `\n`. */
function inlineNodes(parent: PMNode, key: string): GitbookNode[] {
  const out: GitbookNode[] = [];
  let keys = 0;
  const nextKey = (): string => `${key}.${keys++}`;
  let linkRun: { mark: Mark; node: GitbookInline } | null = null;
  const pushLeaf = (target: GitbookNode[], value: GitbookLeaf): void => {
    const last = target[target.length - 1];
    if (last?.object === 'text') last.leaves.push(value);
    else target.push({ object: 'text', key: nextKey(), leaves: [value] });
  };
  parent.forEach((child) => {
    const link = child.marks.find((mark) => mark.type.name === 'link') ?? null;
    if (!link) {
      linkRun = null;
    } else if (!linkRun?.mark.eq(link)) {
      const inline: GitbookInline = {
        object: 'inline',
        type: 'link',
        key: nextKey(),
        data: compact({ ref: targetToRef(String(link.attrs.href ?? '')), title: link.attrs.title }),
        nodes: [],
      };
      out.push(inline);
      linkRun = { mark: link, node: inline };
    }
    const target = linkRun ? linkRun.node.nodes : out;
    if (child.isText) {
      pushLeaf(target, leaf(child.text ?? '', child.marks));
    } else if (child.type.name === 'hardBreak') {
      pushLeaf(target, leaf('\n', []));
    } else if (child.type.name === 'inlineImage') {
      target.push({
        object: 'inline',
        type: 'inline-image',
        key: nextKey(),
        isVoid: true,
        data: compact({ ref: targetToRef(String(child.attrs.src ?? '')), alt: child.attrs.alt, title: child.attrs.title }),
        nodes: [],
      });
    } else if (child.type.name === 'mathInline') {
      target.push({ object: 'inline', type: 'inline-math', key: nextKey(), isVoid: true, data: { formula: child.attrs.tex }, nodes: [] });
    } else if (child.type.name === 'htmlInline') {
      target.push({ object: 'inline', type: 'html', key: nextKey(), isVoid: true, data: { html: child.attrs.html }, nodes: [] });
    }
  });
  return out;
}
