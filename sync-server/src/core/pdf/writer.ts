import PDFDocument from 'pdfkit';
import { fileBytes } from './fonts';
import { drawInReadingOrder } from './bidiText';
import { type Line, type Piece, type Span, drawText, layoutParagraph } from './inline';

export const PAGE = { size: 'A4' as const, margin: 56, header: 30, footer: 34 };

export const COLORS = {
  text: '#1f2328',
  muted: '#656d76',
  link: '#0b57d0',
  rule: '#d0d7de',
  codeBg: '#f6f8fa',
  headerBg: '#eef1f4',
};

/** An image pdfkit has parsed for a document: drawn by passing it back to `image()`. */
export interface PdfImageObject {
  width: number;
  height: number;
}

/**
 * The page cursor of a PDF being written: where the next line goes, page breaks, the
 * fonts registered so far, named destinations, and which page title each physical page
 * shows in its running header.
 */
export class Writer {
  readonly doc: PDFKit.PDFDocument;
  y = 0;
  /** Left edge and width of the frame blocks are drawn in (indented by lists, quotes, hints). */
  x = PAGE.margin;
  width = 0;
  /** Running-header title of each physical page, by index. */
  readonly pageTitles: (string | null)[] = [];
  currentTitle: string | null = null;
  private readonly registered = new Set<string>();
  /** Destinations drawn so far; links to others fall back to their page. */
  readonly dests = new Set<string>();
  /**
   * While true nothing is drawn and pages never break: blocks are laid out only to learn
   * their height (a hint's tinted box is filled before its text is drawn on it).
   */
  dry = false;

  private readonly images = new Map<Buffer, PdfImageObject>();

  /** An image parsed once per document, so one used on many pages is embedded once. */
  openImage(data: Buffer): PdfImageObject {
    let img = this.images.get(data);
    if (!img) {
      // pdfkit's types leave `openImage` out.
      img = (this.doc as unknown as { openImage(src: Buffer): PdfImageObject }).openImage(data);
      this.images.set(data, img);
    }
    return img;
  }

  constructor(title: string) {
    this.doc = new PDFDocument({
      size: PAGE.size,
      margin: PAGE.margin,
      bufferPages: true,
      autoFirstPage: false,
      displayTitle: true,
      info: { Title: title.normalize('NFC'), Producer: 'Quire', Creator: 'Quire' },
    });
  }

  get top() {
    return PAGE.margin + PAGE.header;
  }
  get bottom() {
    return this.doc.page.height - PAGE.margin - PAGE.footer + 20;
  }
  get pageIndex() {
    return this.pageTitles.length - 1;
  }

  newPage(): void {
    this.doc.addPage();
    this.pageTitles.push(this.currentTitle);
    this.y = this.top;
  }

  /** Starts a new page unless `height` still fits below the cursor. */
  ensure(height: number): void {
    if (this.dry) return;
    if (this.y + height > this.bottom && this.y > this.top) this.newPage();
  }

  useFont(file: string, size: number): void {
    if (!this.registered.has(file)) {
      this.doc.registerFont(file, fileBytes(file));
      this.registered.add(file);
    }
    this.doc.font(file).fontSize(size);
  }

  private readonly widths = new Map<string, number>();
  /** Width of text in a face; cached, as the same words come back on every page. */
  readonly measure = (file: string, size: number, text: string): number => {
    const key = `${size}\u0000${file}\u0000${text}`;
    let width = this.widths.get(key);
    if (width === undefined) {
      this.useFont(file, size);
      width = this.doc.widthOfString(text);
      if (this.widths.size < 200_000) this.widths.set(key, width);
    }
    return width;
  };

  /** A named destination at the cursor: page starts and heading anchors. */
  dest(name: string): void {
    if (this.dry || this.dests.has(name)) return;
    this.dests.add(name);
    this.doc.addNamedDestination(name, 'XYZ', 0, this.doc.page.height - this.y + 12, 0);
  }

  lines(spans: Span[], width = this.width, opts: { preserve?: boolean } = {}): Line[] {
    return layoutParagraph(spans, width, this.measure, opts);
  }

  /**
   * Draws laid-out lines from the cursor, breaking pages between lines. Right-to-left
   * paragraphs are set flush right. Links become annotations over the text they cover.
   */
  drawLines(lines: Line[], opts: { x?: number; width?: number; align?: 'left' | 'center' | 'right'; fixed?: boolean } = {}): void {
    const x0 = opts.x ?? this.x;
    const width = opts.width ?? this.width;
    for (const line of lines) {
      if (!opts.fixed) this.ensure(line.height);
      if (this.dry) {
        this.y += line.height;
        continue;
      }
      const align = opts.align ?? (line.rtl ? 'right' : 'left');
      let x = align === 'right' ? x0 + width - line.width : align === 'center' ? x0 + (width - line.width) / 2 : x0;
      const baseline = this.y + line.ascent;
      let open: { x: number; link: NonNullable<Span['link']>; w: number } | null = null;
      const closeLink = () => {
        if (!open) return;
        const h = line.height * 0.9;
        const top = this.y + (line.height - h) / 2;
        if ('url' in open.link) this.doc.link(open.x, top, open.w, h, open.link.url);
        else this.doc.goTo(open.x, top, open.w, h, open.link.dest);
        open = null;
      };
      // Right-to-left pieces are drawn glyph by glyph with the text they stand for (see drawInReadingOrder).
      const texts: { piece: Piece; x: number }[] = [];
      for (const p of line.pieces) {
        const s = p.span;
        if (s.code) {
          this.doc.roundedRect(x - 1, baseline - s.size * 0.95, p.width + 2, s.size * 1.3, 2).fill(COLORS.codeBg);
        }
        texts.push({ piece: p, x });
        if (s.strike) {
          this.doc
            .moveTo(x, baseline - s.size * 0.3)
            .lineTo(x + p.width, baseline - s.size * 0.3)
            .lineWidth(0.7)
            .stroke(s.color);
        }
        if (s.link && 'url' in s.link) {
          this.doc
            .moveTo(x, baseline + 1.5)
            .lineTo(x + p.width, baseline + 1.5)
            .lineWidth(0.5)
            .stroke(COLORS.link);
        }
        if (open && s.link !== open.link) closeLink();
        if (s.link) {
          if (open) open.w += p.width;
          else open = { x, link: s.link, w: p.width };
        }
        x += p.width;
      }
      for (const { piece: p, x: px } of texts) {
        const image = p.span.image;
        if (image) {
          // Sits on the baseline and reaches a little below it, as an icon does in a browser.
          this.doc.image(this.openImage(image.data) as unknown as Buffer, px, baseline - image.height * 0.85, {
            width: image.width,
            height: image.height,
          });
          continue;
        }
        this.useFont(p.file, p.span.size);
        this.doc.fillColor(p.span.link ? COLORS.link : p.span.color);
        if (p.level % 2 === 1) drawInReadingOrder(this.doc, p, px, baseline);
        else this.doc.text(drawText(p), px, baseline, { lineBreak: false, baseline: 'alphabetic' });
      }
      closeLink();
      this.y += line.height;
    }
    this.doc.fillColor(COLORS.text);
  }

  paragraph(spans: Span[], opts: { align?: 'left' | 'center' | 'right'; after?: number } = {}): void {
    this.drawLines(this.lines(spans), { align: opts.align });
    this.y += opts.after ?? 6;
  }

  /** Runs `fn` with the frame indented; answers what it returns. */
  indented<T>(by: number, fn: () => T, right = 0): T {
    const { x, width } = this;
    this.x += by;
    this.width -= by + right;
    try {
      return fn();
    } finally {
      this.x = x;
      this.width = width;
    }
  }

  /** Height the blocks drawn by `fn` take, measured without drawing. */
  measureHeight(fn: () => void): number {
    const { y, dry } = this;
    this.dry = true;
    try {
      fn();
      return this.y - y;
    } finally {
      this.y = y;
      this.dry = dry;
    }
  }

  fillRect(x: number, y: number, w: number, h: number, color: string, radius = 0): void {
    if (this.dry) return;
    (radius ? this.doc.roundedRect(x, y, w, h, radius) : this.doc.rect(x, y, w, h)).fill(color);
    this.doc.fillColor(COLORS.text);
  }

  strokeRect(x: number, y: number, w: number, h: number, color: string, radius = 0, lineWidth = 0.8): void {
    if (this.dry) return;
    (radius ? this.doc.roundedRect(x, y, w, h, radius) : this.doc.rect(x, y, w, h)).lineWidth(lineWidth).stroke(color);
  }

  line(x1: number, y1: number, x2: number, y2: number, color: string, lineWidth = 0.8): void {
    if (this.dry) return;
    this.doc.moveTo(x1, y1).lineTo(x2, y2).lineWidth(lineWidth).stroke(color);
  }

  rule(color = COLORS.rule): void {
    this.ensure(10);
    if (this.dry) {
      this.y += 10;
      return;
    }
    this.doc
      .moveTo(this.x, this.y + 4)
      .lineTo(this.x + this.width, this.y + 4)
      .lineWidth(0.8)
      .stroke(color);
    this.y += 10;
  }
}
