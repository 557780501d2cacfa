import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import type { NodeJSON } from './model';

export interface PdfPage {
  title: string;
  /** Nesting in the page tree, to indent the outline. */
  depth: number;
  body: NodeJSON;
}

type FontRole = 'text' | 'bold' | 'italic' | 'mono';

const FONT_FILES: Record<FontRole, string> = {
  text: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  italic: 'DejaVuSans-Oblique.ttf',
  mono: 'DejaVuSansMono.ttf',
};

interface LoadedFont {
  bytes: Buffer;
  has: (codePoint: number) => boolean;
}

let fonts: Record<FontRole, LoadedFont> | undefined;

/**
 * PDF's built-in fonts only draw Windows-1252, so pages in Greek, Cyrillic, Hebrew or
 * with mathematical symbols would lose their text. The DejaVu faces cover those
 * scripts; pdfkit embeds only the glyphs a document uses. Read once, on first use.
 */
function loadFonts(): Record<FontRole, LoadedFont> {
  if (!fonts) {
    const require = createRequire(import.meta.url);
    const load = (file: string): LoadedFont => {
      const bytes = readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`));
      const face = fontkit.create(bytes);
      return { bytes, has: (cp) => face.hasGlyphForCodePoint(cp) };
    };
    fonts = {
      text: load(FONT_FILES.text),
      bold: load(FONT_FILES.bold),
      italic: load(FONT_FILES.italic),
      mono: load(FONT_FILES.mono),
    };
  }
  return fonts;
}

/** Characters the face cannot draw (emoji, CJK ideographs) become `?` rather than blanks or garbage. */
function printable(text: string, role: FontRole): string {
  const font = loadFonts()[role];
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0) ?? 0;
    out += code === 9 || code === 10 || (code >= 32 && font.has(code)) ? ch : '?';
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
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: title.normalize('NFC'), Producer: 'Quire' }, bufferPages: false });
  for (const [role, font] of Object.entries(loadFonts())) doc.registerFont(role, font.bytes);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('bold').fontSize(22).text(printable(title, 'bold'));
  doc.moveDown(0.5);
  doc.font('text').fontSize(10).fillColor('#555555');
  for (const p of pages) doc.text(`${'    '.repeat(p.depth)}${printable(p.title, 'text')}`);
  doc.fillColor('#000000');

  for (const p of pages) {
    doc.addPage();
    doc
      .font('bold')
      .fontSize(20)
      .text(printable(p.title || 'Untitled', 'bold'));
    doc.moveDown(0.5);
    for (const block of p.body.content ?? []) drawBlock(doc, block, 0);
  }
  doc.end();
  return done;
}

function drawBlock(doc: PDFKit.PDFDocument, node: NodeJSON, indent: number, bullet?: string): void {
  const x = doc.page.margins.left + indent;
  const width = doc.page.width - doc.page.margins.right - x;
  const text = (s: string, font: FontRole = 'text', size = 11) => {
    doc.font(font).fontSize(size).text(printable(s, font), x, undefined, { width });
  };
  switch (node.type) {
    case 'heading':
      doc.moveDown(0.4);
      text(inlineText(node), 'bold', HEADING_SIZES[Number(node.attrs?.level ?? 1)] ?? 13);
      doc.moveDown(0.2);
      return;
    case 'paragraph':
    case 'detailsSummary':
      text(`${bullet ?? ''}${inlineText(node)}`);
      doc.moveDown(0.3);
      return;
    case 'codeBlock':
      text(inlineText(node), 'mono', 9.5);
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
      text(`${String(node.attrs?.style ?? 'info').toUpperCase()}:`, 'bold', 10);
      for (const child of node.content ?? []) drawBlock(doc, child, indent + 12);
      return;
    case 'table':
      for (const row of node.content ?? []) {
        const cells = (row.content ?? []).map((cell) => (cell.content ?? []).map(inlineOrBlockText).join(' '));
        text(cells.join('  |  '), row.content?.[0]?.type === 'tableHeader' ? 'bold' : 'text', 10);
      }
      doc.moveDown(0.3);
      return;
    case 'image':
      text(`[Image${node.attrs?.alt ? `: ${String(node.attrs.alt)}` : ''}]`, 'italic', 10);
      return;
    case 'file':
      text(`[File${node.attrs?.caption ? `: ${String(node.attrs.caption)}` : ''}]`, 'italic', 10);
      return;
    case 'embed':
      text(`[Embed: ${String(node.attrs?.url ?? '')}]`, 'italic', 10);
      return;
    case 'contentRef':
      text(`[See: ${String(node.attrs?.title ?? node.attrs?.href ?? '')}]`, 'italic', 10);
      return;
    case 'horizontalRule':
      doc.moveDown(0.5);
      return;
    case 'tab':
      text(String(node.attrs?.title ?? ''), 'bold', 11);
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
