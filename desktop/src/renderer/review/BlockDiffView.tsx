import type { NodeJSON } from '@quire/shared/content/json';
import { getSchema } from '@tiptap/core';
import { DOMSerializer, Node as PMNode, type Schema } from '@tiptap/pm/model';
import { memo, useLayoutEffect, useRef } from 'react';
import { fileIdOf, fileUrl, useFilesBranch } from '../files/fileUrls';
import { sanitizeHtml } from '../editor/contractViews';
import { schemaExtensions } from '../editor/schema';
import type { BlockChange, PageChange, WordPart } from './blockDiff';

let schema: Schema | null = null;
const editorSchema = () => (schema ??= getSchema(schemaExtensions()));

/** A block drawn as the editor draws it (read-only DOM from the same schema); HTML only sanitized. */
const RenderedBlock = memo(function RenderedBlock({ block }: { block: NodeJSON }) {
  const ref = useRef<HTMLDivElement>(null);
  const branch = useFilesBranch();
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.replaceChildren();
    try {
      const s = editorSchema();
      el.append(DOMSerializer.fromSchema(s).serializeNode(PMNode.fromJSON(s, block)));
    } catch {
      el.textContent = JSON.stringify(block);
    }
    for (const html of el.querySelectorAll<HTMLElement>('[data-type="htmlBlock"], [data-type="htmlInline"]'))
      html.innerHTML = sanitizeHtml(html.getAttribute('data-html') ?? '');
    for (const link of el.querySelectorAll('a')) link.removeAttribute('href');
    // Images are space files: shown as thumbnails from the file's bytes, never from inline data.
    for (const img of el.querySelectorAll<HTMLImageElement>('img')) {
      const fileId = fileIdOf(img.getAttribute('src'));
      img.classList.add('diff-thumbnail');
      if (!fileId) continue;
      img.removeAttribute('src');
      img.dataset.fileId = fileId;
      if (branch) void fileUrl(branch, fileId).then((url) => url && img.setAttribute('src', url));
    }
  }, [block, branch]);
  return <div ref={ref} className="diff-rendered prose" />;
});

function Words({ block, words }: { block: NodeJSON; words: WordPart[] }) {
  const parts = words.map((w, i) =>
    w.kind === 'added' ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: parts have no identity beyond their place
      <ins key={i} className="diff-word diff-ins">
        {w.text}
      </ins>
    ) : w.kind === 'removed' ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: parts have no identity beyond their place
      <del key={i} className="diff-word diff-del">
        {w.text}
      </del>
    ) : (
      // biome-ignore lint/suspicious/noArrayIndexKey: parts have no identity beyond their place
      <span key={i}>{w.text}</span>
    ),
  );
  const level = Number(block.attrs?.level ?? 1);
  const Tag = block.type === 'heading' ? (`h${Math.min(Math.max(level, 1), 4)}` as 'h1') : block.type === 'codeBlock' ? 'pre' : 'p';
  return (
    <div className="diff-rendered prose">
      <Tag>{parts}</Tag>
    </div>
  );
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
    case 'changed':
      return change.words ? (
        <div className="diff-block diff-changed" data-change="changed">
          <span className="diff-sign" aria-label="Changed">
            ~
          </span>
          <Words block={change.after} words={change.words} />
        </div>
      ) : (
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
