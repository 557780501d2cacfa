import { HINT_STYLES } from '@quire/shared/content/schema';
import type { NodeViewRendererProps } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import { NodeViewContent, NodeViewWrapper, type NodeViewProps, ReactNodeViewRenderer } from '@tiptap/react';
import { useState } from 'react';
import { editorBranch, fileIdOf, fileUrl, uploadingIdOf, watchFileUrl } from '../files/fileUrls';
import { ImageView } from './ImageView';
import { Icon } from '../components/Icons';
import { askText } from '../components/Prompt';
import { type NodeExtras, imageDom, inlineImageDom, loadableSrc } from './schema';
import { LEAVE_CODE_HINT } from './leaveBlocks';

/**
 * How the richer blocks look and are edited: a hint's style, a code block's language, a
 * tab's title, where an embed or a page reference points. Everything edits node
 * attributes through ProseMirror transactions, so it syncs like typed text.
 */

const HINT_ICON: Record<string, Parameters<typeof Icon>[0]['name']> = {
  info: 'info',
  success: 'check',
  warning: 'warning',
  danger: 'danger',
};

function HintView({ node, updateAttributes, editor }: NodeViewProps) {
  const style = String(node.attrs.style);
  return (
    <NodeViewWrapper className={`qe-hint qe-hint-${style}`} data-type="hint" data-style={style}>
      <div className="qe-hint-icon" contentEditable={false}>
        <button
          type="button"
          className="qe-hint-switch"
          title="Change the hint style"
          disabled={!editor.isEditable}
          onClick={() => {
            const next = HINT_STYLES[(HINT_STYLES.indexOf(style as (typeof HINT_STYLES)[number]) + 1) % HINT_STYLES.length];
            updateAttributes({ style: next });
          }}
        >
          <Icon name={HINT_ICON[style] ?? 'info'} size={16} />
        </button>
      </div>
      <NodeViewContent className="qe-hint-body" />
    </NodeViewWrapper>
  );
}

const LANGUAGES = [
  '',
  'bash',
  'css',
  'go',
  'html',
  'java',
  'javascript',
  'json',
  'markdown',
  'python',
  'ruby',
  'rust',
  'sql',
  'typescript',
  'yaml',
];

function CodeBlockView({ node, updateAttributes, editor }: NodeViewProps) {
  const language = (node.attrs.language as string | null) ?? '';
  return (
    <NodeViewWrapper className="qe-code" data-language={language || undefined}>
      <div className="qe-code-bar" contentEditable={false}>
        {/* Out of the Tab order, and the caret goes back to the code once a language is picked:
            a focused list takes typed keys as a choice of language. */}
        <select
          value={LANGUAGES.includes(language) ? language : '__other'}
          disabled={!editor.isEditable}
          aria-label="Code language"
          tabIndex={-1}
          onChange={(e) => {
            updateAttributes({ language: e.target.value === '' ? null : e.target.value });
            editor.commands.focus();
          }}
        >
          {LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {l || 'Plain text'}
            </option>
          ))}
          {!LANGUAGES.includes(language) && <option value="__other">{language}</option>}
        </select>
        {node.attrs.title ? <span className="qe-code-title">{String(node.attrs.title)}</span> : null}
        {editor.isEditable && (
          <span className="qe-code-hint" title={LEAVE_CODE_HINT}>
            ↓ or Enter on an empty line to leave
          </span>
        )}
      </div>
      <pre>
        <NodeViewContent as="code" />
      </pre>
    </NodeViewWrapper>
  );
}

function TabView({ node, updateAttributes, editor }: NodeViewProps) {
  const [title, setTitle] = useState(String(node.attrs.title ?? ''));
  return (
    <NodeViewWrapper className="qe-tab" data-type="tab">
      <div className="qe-tab-title" contentEditable={false}>
        <input
          value={title}
          placeholder="Tab title"
          disabled={!editor.isEditable}
          onChange={(e) => setTitle(e.target.value)}
          onBlur={() => title !== node.attrs.title && updateAttributes({ title })}
          onKeyDown={(e) => e.key === 'Enter' && (e.target as HTMLInputElement).blur()}
        />
      </div>
      <NodeViewContent className="qe-tab-body" />
    </NodeViewWrapper>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function EmbedView({ node, updateAttributes, selected, editor }: NodeViewProps) {
  const url = String(node.attrs.url ?? '');
  return (
    <NodeViewWrapper className={`qe-card qe-embed${selected ? ' is-selected' : ''}`} data-type="embed" data-drag-handle="">
      <span className="qe-card-icon">
        <Icon name="globe" size={18} />
      </span>
      <span className="qe-card-text">
        <strong>{url ? hostOf(url) : 'Embed a link'}</strong>
        <small>{url || 'No URL yet'}</small>
      </span>
      <button
        type="button"
        className="qe-card-action"
        disabled={!editor.isEditable}
        onClick={async () => {
          const next = await askText({ title: 'Embed', label: 'URL', value: url, placeholder: 'https://…' });
          if (next !== null) updateAttributes({ url: next.trim() });
        }}
      >
        Edit
      </button>
    </NodeViewWrapper>
  );
}

function ContentRefView({ node, updateAttributes, selected, editor }: NodeViewProps) {
  const href = String(node.attrs.href ?? '');
  const title = (node.attrs.title as string | null) ?? (href.startsWith('page:') ? 'Page' : hostOf(href));
  return (
    <NodeViewWrapper className={`qe-card qe-content-ref${selected ? ' is-selected' : ''}`} data-type="contentRef" data-drag-handle="">
      <span className="qe-card-icon">
        <Icon name="page" size={18} />
      </span>
      <span className="qe-card-text">
        <strong>{title || 'Content reference'}</strong>
        <small>{href || 'Nothing referenced yet'}</small>
      </span>
      <button
        type="button"
        className="qe-card-action"
        disabled={!editor.isEditable}
        onClick={async () => {
          const next = await askText({
            title: 'Content reference',
            label: 'Page link or URL',
            value: href,
            placeholder: 'page:<id> or https://…',
          });
          if (next !== null) updateAttributes({ href: next.trim() });
        }}
      >
        Edit
      </button>
    </NodeViewWrapper>
  );
}

function FileView({ node, selected, editor }: NodeViewProps) {
  const uploading = uploadingIdOf(node.attrs.src);
  const fileId = (node.attrs.fileId as string | null) ?? uploading;
  const label = (node.attrs.caption as string | null) ?? (uploading ? null : (node.attrs.src as string | null)) ?? fileId ?? 'File';
  const branch = editorBranch(editor);
  const open = async () => {
    if (!fileId || !branch) return;
    const url = await fileUrl(branch, fileId);
    if (url) window.open(url, '_blank', 'noopener');
  };
  return (
    <NodeViewWrapper
      className={`qe-card qe-file${selected ? ' is-selected' : ''}`}
      data-type="file"
      data-file-id={fileId ?? undefined}
      data-drag-handle=""
    >
      <span className="qe-card-icon">
        <Icon name="file" size={18} />
      </span>
      <span className="qe-card-text">
        <strong>{label}</strong>
        <small>{uploading ? 'Waiting for upload' : fileId ? 'File' : 'Attachment'}</small>
      </span>
      {fileId && (
        <button type="button" className="qe-card-action" onClick={() => void open()}>
          Open
        </button>
      )}
    </NodeViewWrapper>
  );
}

/** A checkbox that toggles the item without moving the cursor into it. */
function taskItemView({ node, getPos, editor }: NodeViewRendererProps) {
  const li = document.createElement('li');
  li.dataset.type = 'taskItem';
  const label = document.createElement('label');
  label.contentEditable = 'false';
  const box = document.createElement('input');
  box.type = 'checkbox';
  label.append(box);
  const content = document.createElement('div');
  li.append(label, content);
  let current: PMNode = node as PMNode;
  const paint = () => {
    box.checked = !!current.attrs.checked;
    li.dataset.checked = String(!!current.attrs.checked);
  };
  paint();
  box.addEventListener('mousedown', (e) => e.preventDefault());
  box.addEventListener('change', () => {
    const pos = typeof getPos === 'function' ? getPos() : undefined;
    if (pos === undefined || !editor.isEditable) {
      paint();
      return;
    }
    editor.view.dispatch(editor.state.tr.setNodeMarkup(pos, undefined, { ...current.attrs, checked: box.checked }));
  });
  return {
    dom: li,
    contentDOM: content,
    update: (next: PMNode) => {
      if (next.type !== current.type) return false;
      current = next;
      paint();
      return true;
    },
  };
}

/**
 * An inline image: a space file is shown once its bytes are read (its alt text until
 * then), never by giving the `img` an address the window cannot load.
 */
function inlineImageView({ node, editor }: NodeViewRendererProps) {
  const img = document.createElement('img');
  img.className = 'qe-inline-image';
  img.dataset.inline = 'true';
  const branch = editorBranch(editor);
  let current: PMNode = node as PMNode;
  let shownSrc: string | null = null;
  let stop = () => {};
  const paint = () => {
    img.alt = String(current.attrs.alt ?? '');
    if (current.attrs.title) img.title = String(current.attrs.title);
    else img.removeAttribute('title');
    const src = String(current.attrs.src ?? '');
    if (src === shownSrc) return;
    shownSrc = src;
    stop();
    img.dataset.src = src;
    img.removeAttribute('src');
    const fileId = fileIdOf(src);
    if (fileId && branch) stop = watchFileUrl(branch, fileId, (url) => img.setAttribute('src', url));
    else if (loadableSrc(src)) img.setAttribute('src', src);
  };
  paint();
  return {
    dom: img,
    update: (next: PMNode) => {
      if (next.type !== current.type) return false;
      current = next;
      paint();
      return true;
    },
    destroy: () => stop(),
  };
}

/** Node views by node name, merged into the schema extensions. */
export function nodeViewExtras(): NodeExtras {
  return {
    hint: { name: 'hint', addNodeView: () => ReactNodeViewRenderer(HintView) },
    codeBlock: { name: 'codeBlock', addNodeView: () => ReactNodeViewRenderer(CodeBlockView) },
    tab: { name: 'tab', addNodeView: () => ReactNodeViewRenderer(TabView) },
    embed: { name: 'embed', addNodeView: () => ReactNodeViewRenderer(EmbedView) },
    contentRef: { name: 'contentRef', addNodeView: () => ReactNodeViewRenderer(ContentRefView) },
    file: { name: 'file', addNodeView: () => ReactNodeViewRenderer(FileView) },
    // The DOM made from the node outside its view (the clipboard's) keeps space files' addresses out of `src` too.
    image: { name: 'image', addNodeView: () => ReactNodeViewRenderer(ImageView), renderHTML: ({ node }) => imageDom(node, true) },
    inlineImage: {
      name: 'inlineImage',
      addNodeView: () => inlineImageView as never,
      renderHTML: ({ node }) => inlineImageDom(node, true),
    },
    taskItem: { name: 'taskItem', addNodeView: () => taskItemView as never },
  };
}
