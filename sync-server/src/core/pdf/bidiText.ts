import { type Piece, drawText } from './inline';

/** What this needs of pdfkit's current font (its types leave the embedded font out). */
interface EmbeddedFont {
  id: string;
  ref(): unknown;
  encode(text: string): [string[], { xAdvance: number; xOffset: number; yOffset: number }[]];
  layout(text: string): { glyphs: { codePoints: number[] }[] };
}

interface DocInternals {
  _font: EmbeddedFont;
  _fontSize: number;
  page: { height: number; fonts: Record<string, unknown> };
}

const num = (n: number) => String(Math.round(n * 1000) / 1000);

/**
 * Draws a right-to-left piece glyph by glyph, each glyph marked with the characters it
 * stands for (`ActualText`). One shaped glyph may serve several letters (Noto draws
 * initial bāʾ and nūn alike) and a PDF font maps each glyph to one text only, so written
 * the usual way the piece would copy and extract with letters swapped and brackets
 * mirrored. What is drawn does not change.
 */
export function drawInReadingOrder(doc: PDFKit.PDFDocument, p: Piece, x: number, baseline: number): void {
  const d = doc as unknown as DocInternals;
  const font = d._font;
  const drawn = drawText(p);
  const [codes, positions] = font.encode(drawn);
  const texts = glyphTexts(
    font.layout(drawn).glyphs.map((g) => g.codePoints.length),
    p.text,
  );
  const scale = d._fontSize / 1000;
  doc.save();
  // pdfkit's own text drawing flips the page the same way.
  doc.transform(1, 0, 0, -1, 0, d.page.height);
  const y = d.page.height - baseline;
  if (d.page.fonts[font.id] == null) d.page.fonts[font.id] = font.ref();
  doc.addContent('BT');
  doc.addContent(`/${font.id} ${num(d._fontSize)} Tf`);
  let at = x;
  codes.forEach((code, i) => {
    const pos = positions[i] as (typeof positions)[number];
    doc.addContent(`1 0 0 1 ${num(at + pos.xOffset * scale)} ${num(y + pos.yOffset * scale)} Tm`);
    doc.markContent('Span', { actual: texts[i] ?? '' });
    doc.addContent(`<${code}> Tj`);
    doc.endMarkedContent();
    at += pos.xAdvance * scale;
  });
  doc.addContent('ET');
  doc.restore();
}

/**
 * The characters each glyph of a right-to-left piece stands for, glyphs left to right.
 * Read from the right, glyphs take the piece's characters in order, as many as the glyph
 * was shaped from (a lām-alif ligature two, a split-off dot none). The font engine's record of which letters a
 * glyph came from is only good for its count: a glyph shared by several letters keeps the
 * first ones it was drawn for.
 */
export function glyphTexts(counts: number[], logical: string): string[] {
  const chars = [...logical];
  const out = new Array<string>(counts.length).fill('');
  let next = 0;
  for (let i = counts.length - 1; i >= 0; i--) {
    // Dots a font splits off a letter (Noto's nūn is a dotless base and a dot) take none.
    const take = counts[i] ?? 1;
    out[i] = chars.slice(next, next + take).join('');
    next += take;
  }
  // Counts that do not add up (a font that reorders or decomposes): the text goes to the
  // last glyph rather than being lost or misattributed.
  if (next !== chars.length) return counts.map((_, i) => (i === 0 ? logical : ''));
  return out;
}
