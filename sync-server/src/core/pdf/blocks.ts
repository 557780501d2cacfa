import { inlineText } from '@quire/shared/content/anchors';
import type { NodeJSON } from '@quire/shared/content/json';
import { cardGrid } from './cards';
import { codeSpans } from './codeSpans';
import { htmlToBlocks } from './html';
import type { Span } from './inline';
import { type PdfImage, operationKey } from './model';
import { type RenderContext, pageDest } from './renderContext';
import { BODY_SIZE, linkTarget, linkedPageTitle, plainText, spansOf, text } from './spans';
import { COLORS, type Writer } from './writer';

const HEADING_SIZE: Record<number, number> = { 1: 16, 2: 13.5, 3: 12, 4: 11 };

const HINTS: Record<string, { label: string; color: string; bg: string }> = {
  info: { label: 'Info', color: '#0b57d0', bg: '#eaf2fe' },
  success: { label: 'Success', color: '#137333', bg: '#e6f4ea' },
  warning: { label: 'Warning', color: '#a65f00', bg: '#fef4e0' },
  danger: { label: 'Danger', color: '#c5221f', bg: '#fdecea' },
};

export function renderBlocks(ctx: RenderContext, nodes: NodeJSON[] | undefined): void {
  for (const node of nodes ?? []) {
    try {
      renderBlock(ctx, node);
    } catch {
      // A block the layout cannot draw (a broken image, an odd attribute) still shows its text.
      const fallback = plainText(node).trim();
      if (fallback) ctx.w.paragraph([text(fallback)]);
    }
  }
}

/** Draws one block of a page body. Every node type shows its content; none is printed as its tag. */
export function renderBlock(ctx: RenderContext, node: NodeJSON): void {
  const { w } = ctx;
  const a = node.attrs ?? {};
  switch (node.type) {
    case 'paragraph':
      w.paragraph(spansOf(ctx, node, { size: BODY_SIZE, color: COLORS.text }));
      return;
    case 'heading':
      return heading(ctx, node);
    case 'bulletList':
    case 'orderedList':
    case 'taskList':
      return list(ctx, node);
    case 'codeBlock': {
      if (a.language !== 'mermaid')
        return codeBlock(ctx, plainText(node), (a.title as string | null) || (a.language as string | null), a.language as string | null);
      // A diagram the server drew prints as its drawing; any other as its source.
      const drawn = ctx.res.diagrams.get(inlineText(node));
      if (drawn && drawImage(ctx, drawn)) {
        w.paragraph([text('Diagram', 9, 'italic', COLORS.muted)], { align: 'center', after: 8 });
        return;
      }
      return codeBlock(ctx, plainText(node), 'Diagram');
    }
    case 'math':
      return codeBlock(ctx, String(a.tex ?? ''), 'Formula (TeX)');
    case 'blockquote':
      return quote(ctx, node);
    case 'hint':
      return hint(ctx, node);
    case 'table':
      return table(ctx, node);
    case 'image':
      return image(ctx, String(a.src ?? ''), (a.alt as string | null) ?? null, (a.caption as string | null) ?? null);
    case 'file': {
      const file = typeof a.fileId === 'string' ? ctx.res.files.get(a.fileId) : undefined;
      const label = String(a.caption || file?.name || a.src || 'File');
      return card(
        ctx,
        'File',
        [text(label, BODY_SIZE, 'bold', COLORS.text, file ? { url: file.url } : undefined)],
        file?.name && file.name !== label ? file.name : null,
      );
    }
    case 'embed': {
      const url = String(a.url ?? '');
      const link = linkTarget(ctx, url);
      return card(
        ctx,
        'Embedded content',
        [text(a.caption ? String(a.caption) : url, BODY_SIZE, 'bold', COLORS.text, link)],
        a.caption ? url : null,
      );
    }
    case 'contentRef': {
      const href = String(a.href ?? '');
      const link = linkTarget(ctx, href);
      // As on sites: the page's own title, whatever text the reference was written with.
      const title = linkedPageTitle(ctx, href) ?? String(a.title || href);
      return card(ctx, 'See', [text(title, BODY_SIZE, 'bold', COLORS.text, link)], null);
    }
    case 'horizontalRule':
      w.rule();
      return;
    case 'tabs':
      for (const tab of node.content ?? []) {
        w.ensure(40);
        w.paragraph([text(String(tab.attrs?.title ?? ''), 11, 'bold', COLORS.muted)], { after: 2 });
        w.indented(10, () => renderBlocks(ctx, tab.content));
      }
      return;
    case 'details': {
      const [summary, ...rest] = node.content ?? [];
      w.ensure(40);
      if (summary)
        w.paragraph([text('▸ ', BODY_SIZE, 'bold'), ...spansOf(ctx, summary, { size: BODY_SIZE, color: COLORS.text, bold: true })], {
          after: 3,
        });
      w.indented(14, () => rest.forEach((r) => renderBlocks(ctx, r.type === 'detailsContent' ? r.content : [r])));
      return;
    }
    case 'stepper':
      (node.content ?? []).forEach((step, i) => {
        w.ensure(40);
        w.paragraph([text(`Step ${i + 1}`, 11, 'bold', '#0b57d0')], { after: 2 });
        w.indented(14, () => renderBlocks(ctx, step.content));
      });
      return;
    case 'update':
      w.ensure(40);
      w.paragraph(
        [text(String(a.date ?? ''), 9.5, 'bold', COLORS.muted), ...(a.title ? [text(`  ${String(a.title)}`, 11.5, 'bold')] : [])],
        { after: 3 },
      );
      w.indented(10, () => renderBlocks(ctx, node.content));
      w.y += 4;
      return;
    case 'htmlBlock':
      renderBlocks(ctx, htmlToBlocks(String(a.html ?? '')));
      return;
    case 'reusableContent': {
      const body = typeof a.reusableContentId === 'string' ? ctx.res.reusable.get(a.reusableContentId) : undefined;
      if (body && ctx.nesting < 4) {
        ctx.nesting++;
        renderBlocks(ctx, body.content);
        ctx.nesting--;
      } else w.paragraph([text(`Reusable content${a.src ? `: ${String(a.src)}` : ''}`, 9.5, 'italic', COLORS.muted)]);
      return;
    }
    case 'openapiOperation':
      return operation(ctx, node);
    default:
      // columns, column, updates, steps and anything newer: their children, in order.
      if (node.content?.some((c) => c.type === 'text')) w.paragraph(spansOf(ctx, node, { size: BODY_SIZE, color: COLORS.text }));
      else renderBlocks(ctx, node.content);
  }
}

function heading(ctx: RenderContext, node: NodeJSON): void {
  const { w } = ctx;
  const level = Math.min(Math.max(Number(node.attrs?.level ?? 1), 1), 4);
  const size = HEADING_SIZE[level] ?? 11;
  const lines = w.lines(spansOf(ctx, node, { size, color: COLORS.text, bold: true }));
  // A heading is never left alone at the foot of a page.
  w.ensure(lines.reduce((n, l) => n + l.height, 0) + 40);
  w.y += level === 1 ? 8 : 5;
  const anchor = ctx.anchors.get(node);
  if (anchor) w.dest(pageDest(ctx.pageId, anchor));
  if (!w.dry && ctx.outline && level <= 2) ctx.outline.addItem(plainText(node).replace(/\s+/g, ' ').trim() || 'Section');
  w.drawLines(lines);
  if (level === 1) w.rule();
  else w.y += 3;
}

function list(ctx: RenderContext, node: NodeJSON): void {
  const { w } = ctx;
  let n = Number(node.attrs?.start ?? 1);
  for (const item of node.content ?? []) {
    const mark = node.type === 'orderedList' ? `${n++}.` : node.type === 'taskList' ? (item.attrs?.checked ? '☑' : '☐') : '•';
    w.ensure(16);
    const markLines = w.lines([text(mark, BODY_SIZE, node.type === 'orderedList' ? 'text' : 'bold', COLORS.muted)], 18);
    if (!w.dry) {
      const y = w.y;
      w.drawLines(markLines, { x: w.x, width: 16, align: 'right' });
      w.y = y;
    }
    w.indented(22, () => renderBlocks(ctx, item.content));
  }
  w.y += 2;
}

function quote(ctx: RenderContext, node: NodeJSON): void {
  const { w } = ctx;
  const start = { page: w.pageIndex, y: w.y };
  w.indented(14, () => renderBlocks(ctx, node.content));
  sideBar(w, start, w.x + 2, COLORS.rule, 3);
}

/** A bar down the left of a block that may have crossed pages; drawn once its end is known. */
function sideBar(w: Writer, start: { page: number; y: number }, x: number, color: string, width: number): void {
  if (w.dry) return;
  const end = { page: w.pageIndex, y: w.y - 4 };
  for (let p = start.page; p <= end.page; p++) {
    if (p !== w.pageIndex) w.doc.switchToPage(p);
    const top = p === start.page ? start.y : w.top;
    const bottom = p === end.page ? end.y : w.bottom;
    if (bottom > top) w.line(x, top, x, bottom, color, width);
  }
  w.doc.switchToPage(w.pageIndex);
}

function hint(ctx: RenderContext, node: NodeJSON): void {
  const { w } = ctx;
  const style = HINTS[String(node.attrs?.style ?? 'info')] ?? (HINTS.info as (typeof HINTS)['info']);
  const draw = () => {
    w.y += 8;
    w.indented(
      14,
      () => {
        w.paragraph([text(style.label, 9.5, 'bold', style.color)], { after: 2 });
        renderBlocks(ctx, node.content);
      },
      10,
    );
    w.y += 2;
  };
  const height = w.measureHeight(draw);
  w.ensure(Math.min(height, 120));
  const start = { page: w.pageIndex, y: w.y };
  const fits = w.y + height <= w.bottom;
  if (fits) w.fillRect(w.x, w.y, w.width, height, style.bg, 4);
  draw();
  if (!fits) sideBar(w, start, w.x + 1.5, style.bg, 3);
  sideBar(w, start, w.x + 1.5, style.color, 3);
  w.y += 6;
}

function codeBlock(ctx: RenderContext, source: string, title: string | null, language: string | null = null): void {
  const { w } = ctx;
  const pad = 7;
  const lines = w.lines(codeSpans(source.replace(/\n$/, ''), language, 8.8), w.width - 2 * pad, { preserve: true });
  const lineH = lines[0]?.height ?? 12;
  w.y += 2;
  if (title) {
    w.ensure(lineH * 2 + 20);
    const t = w.lines([text(title, 8.5, 'bold', COLORS.muted)], w.width - 2 * pad);
    const h = t.reduce((n, l) => n + l.height, 0) + 6;
    w.fillRect(w.x, w.y, w.width, h, COLORS.headerBg);
    w.y += 3;
    w.drawLines(t, { x: w.x + pad, width: w.width - 2 * pad });
    w.y += 3;
  }
  let i = 0;
  if (!lines.length) lines.push({ pieces: [], width: 0, height: lineH, ascent: lineH * 0.75, rtl: false });
  while (i < lines.length) {
    w.ensure(lineH + 2 * pad);
    const room = w.dry ? Number.POSITIVE_INFINITY : w.bottom - w.y - 2 * pad;
    let h = 0;
    let j = i;
    while (j < lines.length && (j === i || h + (lines[j] as (typeof lines)[number]).height <= room))
      h += (lines[j++] as (typeof lines)[number]).height;
    w.fillRect(w.x, w.y, w.width, h + 2 * pad, COLORS.codeBg, 3);
    w.strokeRect(w.x, w.y, w.width, h + 2 * pad, COLORS.rule, 3, 0.6);
    w.y += pad;
    w.drawLines(lines.slice(i, j), { x: w.x + pad, width: w.width - 2 * pad, align: 'left' });
    w.y += pad;
    i = j;
    if (i < lines.length && !w.dry) w.newPage();
  }
  w.y += 8;
}

function card(ctx: RenderContext, label: string, body: Span[], note: string | null): void {
  const { w } = ctx;
  const pad = 8;
  const inner = w.width - 2 * pad;
  const lines = [
    ...w.lines([text(label, 8.5, 'bold', COLORS.muted)], inner),
    ...w.lines(body, inner),
    ...(note ? w.lines([text(note, 8.5, 'text', COLORS.muted)], inner) : []),
  ];
  const h = lines.reduce((n, l) => n + l.height, 0) + 2 * pad;
  w.ensure(h);
  w.strokeRect(w.x, w.y, w.width, h, COLORS.rule, 4);
  w.y += pad;
  w.drawLines(lines, { x: w.x + pad, width: inner });
  w.y += pad + 6;
}

/** Draws an embeddable image centred in the frame; false when pdfkit cannot read it. */
function drawImage(ctx: RenderContext, found: PdfImage): boolean {
  const { w } = ctx;
  if (!('data' in found)) return false;
  try {
    const img = w.openImage(found.data);
    const maxH = (w.bottom - w.top) * 0.6;
    // Pixels at 96 dpi, never wider than the frame nor taller than most of a page.
    let width = Math.min(w.width, (img.width * 0.75) / (found.scale ?? 1));
    let height = (img.height / img.width) * width;
    if (height > maxH) {
      height = maxH;
      width = (img.width / img.height) * height;
    }
    w.ensure(height + 8);
    if (!w.dry) w.doc.image(img as unknown as Buffer, w.x + (w.width - width) / 2, w.y, { width, height });
    w.y += height + 6;
    return true;
  } catch {
    return false;
  }
}

function image(ctx: RenderContext, src: string, alt: string | null, caption: string | null): void {
  const { w } = ctx;
  const found = ctx.res.images.get(src);
  const drawn = found ? drawImage(ctx, found) : false;
  if (!drawn) {
    const why = found && 'unsupported' in found ? ` (${found.unsupported}, not embedded)` : '';
    const link = /^https?:/i.test(src) ? linkTarget(ctx, src) : undefined;
    card(ctx, 'Image', [text(`${alt || caption || src || 'Image'}${why}`, BODY_SIZE, 'italic', COLORS.muted, link)], null);
    if (caption && (alt || !src)) w.paragraph([text(caption, 9, 'italic', COLORS.muted)], { align: 'center' });
    return;
  }
  if (caption || alt) w.paragraph([text(caption || alt || '', 9, 'italic', COLORS.muted)], { align: 'center', after: 8 });
}

function table(ctx: RenderContext, node: NodeJSON): void {
  const { w } = ctx;
  const rows = (node.content ?? []).filter((r) => r.content?.length);
  if (!rows.length) return;
  if (node.attrs?.view === 'cards') return cardGrid(ctx, rows);
  const cols = Math.max(...rows.map((r) => r.content?.length ?? 0));
  const pad = 5;
  const size = 9.5;
  const cellSpans = (cell: NodeJSON | undefined, header: boolean): Span[] => {
    const spans: Span[] = [];
    (cell?.content ?? []).forEach((block, i) => {
      if (i) spans.push(text('\n', size));
      spans.push(
        ...spansOf(
          ctx,
          block.content?.some((c) => c.type === 'text') || block.type === 'paragraph'
            ? block
            : { type: 'paragraph', content: [{ type: 'text', text: plainText(block) }] },
          { size, color: COLORS.text, bold: header },
        ),
      );
    });
    return spans;
  };
  const isHeader = (r: NodeJSON) => (r.content ?? []).every((c) => c.type === 'tableHeader');
  // Column widths follow how much each column holds, within limits.
  const want = Array.from({ length: cols }, (_, c) =>
    Math.max(
      40,
      ...rows.map((r) => {
        const spans = cellSpans(r.content?.[c], isHeader(r));
        return Math.min(w.width * 0.6, w.lines(spans, 10_000).reduce((m, l) => Math.max(m, l.width), 0) + 2 * pad + 1);
      }),
    ),
  );
  const total = want.reduce((n, x) => n + x, 0);
  const widths = want.map((x) => (total > w.width || total < w.width * 0.5 ? (x / total) * w.width : x));
  const tableWidth = widths.reduce((n, x) => n + x, 0);
  const header = rows[0] && isHeader(rows[0]) ? rows[0] : undefined;
  const drawRow = (row: NodeJSON) => {
    const head = isHeader(row);
    const laid = widths.map((cw, c) => w.lines(cellSpans(row.content?.[c], head), cw - 2 * pad));
    const h = Math.max(...laid.map((ls) => ls.reduce((n, l) => n + l.height, 0))) + 2 * pad;
    if (!w.dry && w.y + h > w.bottom && w.y > w.top) {
      w.newPage();
      if (header && row !== header) drawRow(header);
    }
    let x = w.x;
    const y = w.y;
    widths.forEach((cw, c) => {
      if (head) w.fillRect(x, y, cw, h, COLORS.headerBg);
      w.strokeRect(x, y, cw, h, COLORS.rule, 0, 0.7);
      w.y = y + pad;
      const align = row.content?.[c]?.attrs?.align;
      w.drawLines(laid[c] ?? [], { x: x + pad, width: cw - 2 * pad, ...(align === 'center' || align === 'right' ? { align } : {}) });
      x += cw;
    });
    w.y = y + h;
  };
  void tableWidth;
  for (const row of rows) drawRow(row);
  w.y += 10;
}

function operation(ctx: RenderContext, node: NodeJSON): void {
  const { w } = ctx;
  const a = node.attrs ?? {};
  const body = ctx.res.operations.get(operationKey(a));
  if (body) {
    renderBlocks(ctx, body.content);
    return;
  }
  const where = String(a.spec ?? a.src ?? '');
  card(
    ctx,
    'API operation',
    [text(`${String(a.method ?? '').toUpperCase()} ${String(a.path ?? '')}`, BODY_SIZE, 'monoBold')],
    where ? `From ${where}; the specification could not be read when this PDF was made.` : null,
  );
}
