import { AnchorAllocator, headingText } from '@quire/shared/content/anchors';
import type { NodeJSON } from '@quire/shared/content/json';
import { renderBlocks } from './blocks';
import { type RenderContext, pageDest } from './renderContext';
import { pdfDiagrams } from './diagrams';
import type { Span } from './inline';
import { type PdfInput, type PdfPage, emptyResources } from './model';
import { COLORS, PAGE, Writer } from './writer';

export type { PdfInput, PdfPage, PdfResources, PdfImage } from './model';
export { operationKey } from './model';

const TOC_ROW = 17;

const span = (text: string, size: number, role: Span['role'] = 'text', color = COLORS.text): Span => ({ text, size, role, color });

/** Anchors of every heading, and the destinations a document of these pages will hold. */
function prescan(pages: PdfPage[]) {
  const anchors = new Map<NodeJSON, string>();
  const dests = new Set<string>();
  for (const page of pages) {
    dests.add(pageDest(page.id));
    const allocator = new AnchorAllocator();
    const walk = (node: NodeJSON): void => {
      if (node.type === 'heading') {
        // The same anchors as sites and outlines: the written `id`, else a slug of the text.
        const id = allocator.next(headingText(node), typeof node.attrs?.id === 'string' ? node.attrs.id : null);
        anchors.set(node, id);
        dests.add(pageDest(page.id, id));
        return;
      }
      node.content?.forEach(walk);
    };
    walk(page.body);
  }
  return { anchors, dests };
}

function cover(w: Writer, input: PdfInput): void {
  w.newPage();
  const { doc } = w;
  w.fillRect(0, 0, doc.page.width, 10, '#0b57d0');
  w.y = doc.page.height * 0.32;
  w.drawLines(w.lines([span(input.title || 'Untitled', 28, 'bold')]), { fixed: true });
  w.y += 8;
  w.line(w.x, w.y, w.x + 80, w.y, '#0b57d0', 2.5);
  w.y += 14;
  if (input.subtitle) w.drawLines(w.lines([span(input.subtitle, 13, 'text', COLORS.muted)]), { fixed: true });
  w.y += 4;
  const count = input.pages.length;
  w.drawLines(w.lines([span(`${count} ${count === 1 ? 'page' : 'pages'}`, 10, 'text', COLORS.muted)]), { fixed: true });
}

function tocCapacity(w: Writer, first: boolean): number {
  return Math.floor((w.bottom - w.top - (first ? 50 : 0)) / TOC_ROW);
}

function tocPageCount(w: Writer, entries: number): number {
  const first = tocCapacity(w, true);
  return entries <= first ? 1 : 1 + Math.ceil((entries - first) / tocCapacity(w, false));
}

/** The contents: one row per page, indented by depth, with a dotted leader and its page number; each row is a link. */
function fillToc(w: Writer, input: PdfInput, firstTocPage: number, starts: Map<string, number>): void {
  let page = firstTocPage;
  w.doc.switchToPage(page);
  w.y = w.top;
  w.drawLines(w.lines([span('Contents', 20, 'bold')]), { fixed: true });
  w.y += 20;
  let room = tocCapacity(w, true);
  for (const p of input.pages) {
    if (room === 0) {
      w.doc.switchToPage(++page);
      w.y = w.top;
      room = tocCapacity(w, false);
    }
    room--;
    const indent = Math.min(p.depth, 5) * 14;
    const number = String((starts.get(p.id) ?? 0) + 1);
    const size = p.depth === 0 ? 10.5 : 10;
    const role = p.depth === 0 ? 'bold' : 'text';
    const numLines = w.lines([span(number, size, role)], 40);
    const numW = numLines[0]?.width ?? 10;
    const avail = w.width - indent - numW - 24;
    let title = p.title || 'Untitled';
    let lines = w.lines([span(title, size, role)], 10_000);
    while ((lines[0]?.width ?? 0) > avail && title.length > 1) {
      title = title.slice(0, -2);
      lines = w.lines([span(`${title}…`, size, role)], 10_000);
    }
    const y = w.y;
    w.drawLines(lines, { x: w.x + indent, width: avail, align: 'left', fixed: true });
    w.y = y;
    w.drawLines(numLines, { x: w.x + w.width - 40, width: 40, align: 'right', fixed: true });
    const leaderFrom = w.x + indent + (lines[0]?.width ?? 0) + 6;
    const leaderTo = w.x + w.width - numW - 6;
    if (leaderTo > leaderFrom) {
      w.doc
        .moveTo(leaderFrom, y + size * 1.1)
        .lineTo(leaderTo, y + size * 1.1)
        .dash(0.8, { space: 2.5 })
        .lineWidth(0.8)
        .stroke('#9aa4ae')
        .undash();
    }
    w.doc.goTo(w.x + indent, y, w.width - indent, TOC_ROW - 2, pageDest(p.id));
    w.y = y + TOC_ROW;
  }
}

/** Running header (document and page title) and footer (page N of M) on every page but the cover. */
function decorate(w: Writer, title: string): void {
  const total = w.pageTitles.length;
  for (let i = 1; i < total; i++) {
    w.doc.switchToPage(i);
    const bottomMargin = w.doc.page.margins.bottom;
    w.doc.page.margins.bottom = 0;
    const width = w.doc.page.width - 2 * PAGE.margin;
    w.y = PAGE.margin - 8;
    w.drawLines(w.lines([span(title, 8.5, 'text', COLORS.muted)], width / 2 - 10), {
      x: PAGE.margin,
      width: width / 2 - 10,
      align: 'left',
      fixed: true,
    });
    const pageTitle = w.pageTitles[i];
    if (pageTitle) {
      w.y = PAGE.margin - 8;
      const lines = w.lines([span(pageTitle, 8.5, 'bold', COLORS.muted)], width / 2 - 10);
      w.drawLines(lines.slice(0, 1), { x: PAGE.margin + width / 2 + 10, width: width / 2 - 10, align: 'right', fixed: true });
    }
    w.line(PAGE.margin, PAGE.margin + 8, PAGE.margin + width, PAGE.margin + 8, COLORS.rule, 0.6);
    w.y = w.doc.page.height - PAGE.margin + 4;
    w.drawLines(w.lines([span(`Page ${i + 1} of ${total}`, 8.5, 'text', COLORS.muted)], width), {
      x: PAGE.margin,
      width,
      align: 'center',
      fixed: true,
    });
    w.doc.page.margins.bottom = bottomMargin;
  }
}

/**
 * A PDF of some pages, to hand to a reader: a cover, the contents with page numbers
 * (each row a link), every page from a new sheet with its headings as bookmarks,
 * running headers and page numbers. Text is real text in embedded Noto faces, so it can
 * be searched and copied in any script.
 */
export async function renderPdf(input: PdfInput): Promise<Buffer> {
  const w = new Writer(input.title || 'Untitled');
  const { doc } = w;
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  try {
    const res = { ...emptyResources(), ...input.resources };
    res.diagrams = await pdfDiagrams([...input.pages.map((p) => p.body), ...res.reusable.values(), ...res.operations.values()]);
    const { anchors, dests } = prescan(input.pages);
    w.x = PAGE.margin;
    w.width = 595.28 - 2 * PAGE.margin;
    cover(w, input);
    w.width = doc.page.width - 2 * PAGE.margin;
    const firstToc = w.pageTitles.length;
    w.currentTitle = 'Contents';
    const tocPages = input.pages.length ? tocPageCount(w, input.pages.length) : 0;
    for (let i = 0; i < tocPages; i++) w.newPage();
    if (tocPages) doc.outline.addItem('Contents');

    const starts = new Map<string, number>();
    const parents: PDFKit.PDFOutline[] = [];
    for (const page of input.pages) {
      // Drawing is CPU work: other requests and sync messages get their turn between pages.
      await new Promise((resolve) => setImmediate(resolve));
      w.currentTitle = page.title || 'Untitled';
      w.newPage();
      starts.set(page.id, w.pageIndex);
      w.dest(pageDest(page.id));
      const depth = Math.min(page.depth, parents.length);
      const parent = depth === 0 ? doc.outline : (parents[depth - 1] as PDFKit.PDFOutline);
      const item = parent.addItem(w.currentTitle);
      parents.length = depth;
      parents.push(item);
      w.drawLines(w.lines([span(w.currentTitle, 21, 'bold')]));
      if (page.description) {
        w.y += 2;
        w.drawLines(w.lines([span(page.description, 11.5, 'text', COLORS.muted)]));
      }
      w.y += 4;
      w.rule();
      w.y += 4;
      const ctx: RenderContext = { w, res, pageId: page.id, anchors, dests, outline: item, nesting: 0 };
      renderBlocks(ctx, page.body.content);
    }
    if (tocPages) fillToc(w, input, firstToc, starts);
    decorate(w, input.title || 'Untitled');
    doc.end();
  } catch (err) {
    doc.removeAllListeners();
    throw err;
  }
  return done;
}
