import { NodeSelection } from '@tiptap/pm/state';
import { NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { useRef, useState } from 'react';
import { Icon } from '../components/Icons';
import { editorBranch, fileIdOf, uploadingIdOf, useImageUrl } from '../files/fileUrls';

/** Widths offered without dragging, in CSS pixels; `null` is as wide as the column allows. */
export const IMAGE_SIZES: { label: string; width: number | null }[] = [
  { label: 'Small', width: 240 },
  { label: 'Medium', width: 480 },
  { label: 'Full', width: null },
];
const MIN_WIDTH = 48;

/** The image's `width` attribute as pixels: a number, or a numeric string from markdown (`width="400"`). */
export function imageWidth(value: unknown): number | null {
  const n = typeof value === 'number' ? value : Number.parseFloat(String(value ?? ''));
  return Number.isFinite(n) && n > 0 && !/%$/.test(String(value)) ? Math.round(n) : null;
}

/**
 * An image block: the picture (once its bytes are here), its caption, and its width. The
 * corner handle resizes it (one transaction when the pointer is released); the size
 * buttons, shown while the image is hovered or selected, do the same (Tab reaches them).
 */
export function ImageView({ node, updateAttributes, selected, editor, getPos }: NodeViewProps) {
  const src = String(node.attrs.src ?? '');
  const caption = (node.attrs.caption as string | null) ?? '';
  const width = imageWidth(node.attrs.width);
  const shown = useImageUrl(editorBranch(editor), src);
  const frame = useRef<HTMLSpanElement>(null);
  const [live, setLive] = useState<number | null>(null);
  const resize = useRef<{ x: number; from: number; max: number } | null>(null);
  const editable = editor.isEditable;
  /** One transaction that keeps the image selected (a plain attribute update would drop the selection, and the size buttons with it). */
  const setWidth = (next: number | null) => {
    const pos = getPos();
    if (typeof pos !== 'number') return;
    // The content model keeps the width as written in HTML: pixels as a string ("480").
    const tr = editor.state.tr.setNodeMarkup(pos, undefined, { ...node.attrs, width: next === null ? null : String(next) });
    editor.view.dispatch(tr.setSelection(NodeSelection.create(tr.doc, pos)));
  };

  const onPointerDown = (e: React.PointerEvent<HTMLSpanElement>) => {
    const img = frame.current?.querySelector('img');
    const figure = frame.current?.closest('.qe-image');
    if (e.button !== 0 || !img || !figure) return;
    e.preventDefault();
    e.stopPropagation();
    e.currentTarget.setPointerCapture(e.pointerId);
    resize.current = { x: e.clientX, from: img.getBoundingClientRect().width, max: figure.getBoundingClientRect().width };
  };
  const widthAt = (clientX: number) => {
    const r = resize.current!;
    // The image is centred: its corner moves half as fast as its width grows.
    return Math.round(Math.min(r.max, Math.max(MIN_WIDTH, r.from + 2 * (clientX - r.x))));
  };
  const onPointerMove = (e: React.PointerEvent) => {
    if (resize.current) setLive(widthAt(e.clientX));
  };
  const onPointerUp = (e: React.PointerEvent) => {
    if (!resize.current) return;
    const next = widthAt(e.clientX);
    const full = next >= resize.current.max - 1;
    resize.current = null;
    setLive(null);
    setWidth(full ? null : next);
  };

  return (
    <NodeViewWrapper className={`qe-image${selected ? ' is-selected' : ''}`} data-drag-handle="" data-src={src}>
      {uploadingIdOf(src) && (
        <span className="qe-image-uploading" role="status" title="Shown from this machine: others see it once the server has it.">
          Waiting for upload
        </span>
      )}
      {shown ? (
        <span className="qe-image-frame" ref={frame}>
          <img src={shown} alt={(node.attrs.alt as string | null) ?? ''} width={live ?? width ?? undefined} draggable={false} />
          {editable && (
            <span
              className="qe-image-resize"
              aria-hidden
              title="Drag to resize"
              onPointerDown={onPointerDown}
              onPointerMove={onPointerMove}
              onPointerUp={onPointerUp}
              onPointerCancel={() => {
                resize.current = null;
                setLive(null);
              }}
            />
          )}
        </span>
      ) : (
        <div className="qe-image-missing">
          <Icon name="image" size={22} />
          <span>{fileIdOf(src) ? 'Loading image…' : src || 'No image'}</span>
        </div>
      )}
      {editable && shown && (
        <span className="qe-image-sizes" role="toolbar" aria-label="Image size" contentEditable={false}>
          {IMAGE_SIZES.map((size) => (
            <button
              key={size.label}
              type="button"
              aria-pressed={width === size.width}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => {
                setWidth(size.width);
                editor.view.focus();
              }}
            >
              {size.label}
            </button>
          ))}
        </span>
      )}
      <input
        className="qe-image-caption"
        value={caption}
        placeholder={editable ? 'Add a caption' : ''}
        disabled={!editable}
        onChange={(e) => updateAttributes({ caption: e.target.value || null })}
      />
    </NodeViewWrapper>
  );
}
