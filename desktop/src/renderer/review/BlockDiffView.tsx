import type { NodeJSON } from '@quire/shared/content/json';
import { getSchema } from '@tiptap/core';
import { type DOMOutputSpec, DOMSerializer, Fragment, Node as PMNode, type Schema } from '@tiptap/pm/model';
import { memo, useCallback, useLayoutEffect, useRef } from 'react';
import { sanitizeHtml } from '../editor/contractViews';
import { schemaExtensions } from '../editor/schema';
import { fileIdOf, fileUrl, useFilesBranch } from '../files/fileUrls';
import type { AttrChange, BlockChange, ChangedBlock, PageChange, WordPart } from './blockDiff';
import { textOf } from './blockDiff';

let schema: Schema | null = null;
const editorSchema = () => (schema ??= getSchema(schemaExtensions()));
const serializer = () => DOMSerializer.fromSchema(editorSchema());

/** A block as the editor draws it (read-only DOM from the same schema). */
function renderNode(block: NodeJSON): HTMLElement {
  try {
    const dom = serializer().serializeNode(PMNode.fromJSON(editorSchema(), block));
    if (dom instanceof HTMLElement) return dom;
    const wrap = document.createElement('div');
    wrap.append(dom);
    return wrap;
  } catch {
    const p = document.createElement('p');
    p.textContent = textOf(block);
    return p;
  }
}

function wordsInto(parent: HTMLElement, words: WordPart[]) {
  const s = editorSchema();
  parent.replaceChildren(
    ...words.map((part) => {
      let content: Node;
      try {
        content = serializer().serializeFragment(Fragment.fromArray(part.nodes.map((n) => s.nodeFromJSON(n))));
      } catch {
        content = document.createTextNode(part.text);
      }
      if (part.kind === 'same') return content;
      const el = document.createElement(part.kind === 'added' ? 'ins' : 'del');
      el.className = `diff-word diff-${part.kind === 'added' ? 'ins' : 'del'}`;
      el.append(content);
      return el;
    }),
  );
}

function markNode(el: HTMLElement, kind: string): HTMLElement {
  el.classList.add(`diff-node-${kind}`);
  el.dataset.change = kind;
  if (kind === 'moved' || kind === 'movedAway') el.title = kind === 'moved' ? 'Moved here' : 'Moved from here';
  return el;
}

const ATTR_NAMES: Record<string, string> = {
  caption: 'Caption',
  alt: 'Alternative text',
  title: 'Title',
  language: 'Language',
  checked: 'Done',
  style: 'Style',
  width: 'Width',
  start: 'Numbered from',
  align: 'Alignment',
};

/** Attribute changes with no place of their own in the block, listed below it. */
function attrList(attrs: AttrChange[]): HTMLElement {
  const list = document.createElement('div');
  list.className = 'diff-attrs';
  for (const a of attrs) {
    const row = document.createElement('div');
    const name = document.createElement('span');
    name.className = 'diff-attr-name';
    name.textContent = `${ATTR_NAMES[a.name] ?? a.name}:`;
    const value = document.createElement('span');
    if (a.words) wordsInto(value, a.words);
    else {
      const del = document.createElement('del');
      del.className = 'diff-word diff-del';
      del.textContent = String(a.before ?? '—');
      const ins = document.createElement('ins');
      ins.className = 'diff-word diff-ins';
      ins.textContent = String(a.after ?? '—');
      value.append(del, ' ', ins);
    }
    row.append(name, ' ', value);
    list.append(row);
  }
  return list;
}

/** An edited block drawn once, as the editor draws it, with what changed inside it marked. */
function renderChanged(change: ChangedBlock): HTMLElement {
  let dom: HTMLElement;
  let contentDOM: HTMLElement | undefined;
  try {
    const node = PMNode.fromJSON(editorSchema(), change.after);
    const spec = node.type.spec.toDOM?.(node) as DOMOutputSpec;
    const rendered = DOMSerializer.renderSpec(document, spec);
    dom = rendered.dom as HTMLElement;
    contentDOM = rendered.contentDOM as HTMLElement | undefined;
    if (contentDOM && !change.words && !change.children) {
      contentDOM.append(serializer().serializeFragment(node.content));
    }
  } catch {
    dom = document.createElement('p');
    contentDOM = dom;
  }
  if (change.words && contentDOM) wordsInto(contentDOM, change.words);
  if (change.children && contentDOM) contentDOM.replaceChildren(...change.children.map(renderChild));
  const attrs = [...(change.attrs ?? [])];
  // An image's caption is shown where it is, under the picture.
  const caption = attrs.find((a) => a.name === 'caption' && a.words);
  if (caption?.words && dom.tagName === 'FIGURE') {
    let fig = dom.querySelector('figcaption');
    if (!fig) {
      fig = document.createElement('figcaption');
      dom.append(fig);
    }
    wordsInto(fig, caption.words);
    attrs.splice(attrs.indexOf(caption), 1);
  }
  if (attrs.length === 0) return dom;
  if (dom.tagName === 'LI' || dom.tagName === 'TD' || dom.tagName === 'TH' || dom.tagName === 'TR') {
    (contentDOM ?? dom).append(attrList(attrs));
    return dom;
  }
  const wrap = document.createElement('div');
  wrap.append(dom, attrList(attrs));
  return wrap;
}

function renderChild(change: BlockChange): Node {
  switch (change.kind) {
    case 'fold':
      return document.createTextNode('');
    case 'same':
      return renderNode(change.block);
    case 'changed':
      return markNode(renderChanged(change), 'changed');
    default:
      return markNode(renderNode(change.block), change.kind);
  }
}

/**
 * Drawn DOM made safe and light: HTML only sanitized, no link to follow, and images as
 * thumbnails of the space's files, from their bytes, never from inline data.
 */
function finish(el: HTMLElement, branch: ReturnType<typeof useFilesBranch>) {
  for (const html of el.querySelectorAll<HTMLElement>('[data-type="htmlBlock"], [data-type="htmlInline"]'))
    html.innerHTML = sanitizeHtml(html.getAttribute('data-html') ?? '');
  for (const link of el.querySelectorAll('a')) link.removeAttribute('href');
  for (const input of el.querySelectorAll('input')) input.disabled = true;
  for (const img of el.querySelectorAll<HTMLImageElement>('img')) {
    const fileId = fileIdOf(img.getAttribute('src'));
    img.classList.add('diff-thumbnail');
    if (!fileId) continue;
    img.removeAttribute('src');
    img.dataset.fileId = fileId;
    if (branch) void fileUrl(branch, fileId).then((url) => url && img.setAttribute('src', url));
  }
}

/** DOM built outside React (the editor schema's serializer), placed in a React tree. */
const DomBlock = memo(function DomBlock({ build }: { build: () => Node }) {
  const ref = useRef<HTMLDivElement>(null);
  const branch = useFilesBranch();
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.replaceChildren(build());
    finish(el, branch);
  }, [build, branch]);
  return <div ref={ref} className="diff-rendered prose" />;
});

const RenderedBlock = memo(function RenderedBlock({ block }: { block: NodeJSON }) {
  return <DomBlock build={useCallback(() => renderNode(block), [block])} />;
});

const ChangedBlockView = memo(function ChangedBlockView({ change }: { change: ChangedBlock }) {
  return <DomBlock build={useCallback(() => renderChanged(change), [change])} />;
});

/** Blocks whose look is what they show (a picture, an embed): a new one is shown beside the old. */
const shownByAttrs = (c: ChangedBlock) =>
  !c.words && !c.children && (c.attrs ?? []).some((a) => ['src', 'srcDark', 'fileId', 'url', 'href', 'html', 'tex'].includes(a.name));

function excerpt(block: NodeJSON): string {
  const text = textOf(block).replace(/\s+/g, ' ').trim();
  return text.length > 70 ? `${text.slice(0, 70)}…` : text || block.type;
}

function Change({ change }: { change: BlockChange }) {
  switch (change.kind) {
    case 'fold':
      return (
        <div className="diff-fold">
          ⋯ {change.count} unchanged block{change.count > 1 ? 's' : ''}
        </div>
      );
    case 'same':
      return (
        <div className="diff-block diff-same">
          <RenderedBlock block={change.block} />
        </div>
      );
    case 'added':
    case 'removed':
      return (
        <div className={`diff-block diff-${change.kind}`} data-change={change.kind}>
          <span className="diff-sign" aria-label={change.kind === 'added' ? 'Added' : 'Removed'}>
            {change.kind === 'added' ? '+' : '−'}
          </span>
          <RenderedBlock block={change.block} />
        </div>
      );
    case 'moved':
      return (
        <div className="diff-block diff-moved" data-change="moved">
          <span className="diff-sign" aria-label="Moved here">
            ↕
          </span>
          <RenderedBlock block={change.block} />
          <span className="diff-moved-tag">moved here</span>
        </div>
      );
    case 'movedAway':
      return (
        <div className="diff-block diff-moved-away" data-change="movedAway">
          <span className="diff-sign" aria-label="Moved from here">
            ↕
          </span>
          <span className="diff-moved-note">
            Moved from here: <q>{excerpt(change.block)}</q>
          </span>
        </div>
      );
    case 'changed':
      return shownByAttrs(change) ? (
        <>
          <div className="diff-block diff-removed" data-change="removed">
            <span className="diff-sign" aria-label="Before">
              −
            </span>
            <RenderedBlock block={change.before} />
          </div>
          <div className="diff-block diff-added" data-change="added">
            <span className="diff-sign" aria-label="After">
              +
            </span>
            <RenderedBlock block={change.after} />
          </div>
        </>
      ) : (
        <div className="diff-block diff-changed" data-change="changed">
          <span className="diff-sign" aria-label="Changed">
            ~
          </span>
          <ChangedBlockView change={change} />
        </div>
      );
  }
}

/** One page's changes, rendered block by block. */
export const PageDiff = memo(function PageDiff({ page }: { page: PageChange }) {
  if (page.blocks.length === 0) return null;
  return (
    <div className="block-diff">
      {page.blocks.map((change, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a change has no identity beyond its place
        <Change key={i} change={change} />
      ))}
    </div>
  );
});
