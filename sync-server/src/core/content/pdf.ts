import PDFDocument from 'pdfkit';
import type { NodeJSON } from './model';

export interface PdfPage {
  title: string;
  /** Nesting in the page tree, to indent the outline. */
  depth: number;
  body: NodeJSON;
}

// WinAnsi (the encoding of PDF's built-in fonts) beyond Latin-1: what typographic text uses.
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** The built-in fonts cannot draw other characters; they become `?` rather than garbage. */
function printable(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0) ?? 0;
    out += code === 9 || code === 10 || (code >= 32 && code < 127) || (code >= 160 && code <= 255) || WIN_ANSI_EXTRA.has(ch) ? ch : '?';
  }
  return out;
}

const HEADING_SIZES: Record<number, number> = { 1: 18, 2: 15, 3: 13 };

/**
 * A PDF of some pages: each starts on a new page under its title, then its body drawn
 * block by block in the built-in fonts. Text is real text (not images), so it can be
 * searched, copied and read by `pdftotext`.
 */
export function renderPdf(title: string, pages: PdfPage[]): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: printable(title), Producer: 'Quire' }, bufferPages: false });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('Helvetica-Bold').fontSize(22).text(printable(title));
  doc.moveDown(0.5);
  doc.font('Helvetica').fontSize(10).fillColor('#555555');
  for (const p of pages) doc.text(`${'    '.repeat(p.depth)}${printable(p.title)}`);
  doc.fillColor('#000000');

  for (const p of pages) {
    doc.addPage();
    doc
      .font('Helvetica-Bold')
      .fontSize(20)
      .text(printable(p.title || 'Untitled'));
    doc.moveDown(0.5);
    for (const block of p.body.content ?? []) drawBlock(doc, block, 0);
  }
  doc.end();
  return done;
}

function drawBlock(doc: PDFKit.PDFDocument, node: NodeJSON, indent: number, bullet?: string): void {
  const x = doc.page.margins.left + indent;
  const width = doc.page.width - doc.page.margins.right - x;
  const text = (s: string, font = 'Helvetica', size = 11) => {
    doc.font(font).fontSize(size).text(printable(s), x, undefined, { width });
  };
  switch (node.type) {
    case 'heading':
      doc.moveDown(0.4);
      text(inlineText(node), 'Helvetica-Bold', HEADING_SIZES[Number(node.attrs?.level ?? 1)] ?? 13);
      doc.moveDown(0.2);
      return;
    case 'paragraph':
    case 'detailsSummary':
      text(`${bullet ?? ''}${inlineText(node)}`);
      doc.moveDown(0.3);
      return;
    case 'codeBlock':
      text(inlineText(node), 'Courier', 9.5);
      doc.moveDown(0.3);
      return;
    case 'bulletList':
    case 'orderedList':
    case 'taskList': {
      let n = Number(node.attrs?.start ?? 1);
      for (const item of node.content ?? []) {
        const mark = node.type === 'orderedList' ? `${n++}. ` : node.type === 'taskList' ? (item.attrs?.checked ? '[x] ' : '[ ] ') : '• ';
        const [first, ...rest] = item.content ?? [];
        if (first) drawBlock(doc, first, indent + 12, mark);
        for (const child of rest) drawBlock(doc, child, indent + 24);
      }
      return;
    }
    case 'hint':
      text(`${String(node.attrs?.style ?? 'info').toUpperCase()}:`, 'Helvetica-Bold', 10);
      for (const child of node.content ?? []) drawBlock(doc, child, indent + 12);
      return;
    case 'table':
      for (const row of node.content ?? []) {
        const cells = (row.content ?? []).map((cell) => (cell.content ?? []).map(inlineOrBlockText).join(' '));
        text(cells.join('  |  '), row.content?.[0]?.type === 'tableHeader' ? 'Helvetica-Bold' : 'Helvetica', 10);
      }
      doc.moveDown(0.3);
      return;
    case 'image':
      text(`[Image${node.attrs?.alt ? `: ${String(node.attrs.alt)}` : ''}]`, 'Helvetica-Oblique', 10);
      return;
    case 'file':
      text(`[File${node.attrs?.caption ? `: ${String(node.attrs.caption)}` : ''}]`, 'Helvetica-Oblique', 10);
      return;
    case 'embed':
      text(`[Embed: ${String(node.attrs?.url ?? '')}]`, 'Helvetica-Oblique', 10);
      return;
    case 'contentRef':
      text(`[See: ${String(node.attrs?.title ?? node.attrs?.href ?? '')}]`, 'Helvetica-Oblique', 10);
      return;
    case 'horizontalRule':
      doc.moveDown(0.5);
      return;
    case 'tab':
      text(String(node.attrs?.title ?? ''), 'Helvetica-Bold', 11);
      for (const child of node.content ?? []) drawBlock(doc, child, indent + 12);
      return;
    default:
      for (const child of node.content ?? []) drawBlock(doc, child, indent + (node.type === 'blockquote' ? 12 : 0));
  }
}

function inlineOrBlockText(node: NodeJSON): string {
  if (node.type === 'paragraph' || node.type === 'heading' || node.type === 'codeBlock') return inlineText(node);
  return (node.content ?? []).map(inlineOrBlockText).join(' ');
}

/** Text of an inline container; hard breaks read as spaces. */
function inlineText(node: NodeJSON): string {
  let text = '';
  for (const child of node.content ?? []) {
    if (child.type === 'text') text += child.text ?? '';
    else if (child.type === 'hardBreak') text += node.type === 'codeBlock' ? '\n' : ' ';
    else if (child.content) text += inlineText(child);
  }
  return text;
}
