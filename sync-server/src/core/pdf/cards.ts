import type { NodeJSON } from '@quire/shared/content/json';
import type { Line } from './inline';
import type { RenderContext } from './renderContext';
import { plainText, spansOf } from './spans';
import { COLORS } from './writer';

const GAP = 10;
const PAD = 9;
/** Narrowest a card may be: three fit a portrait A4 text column, two a narrower one. */
const MIN_CARD = 140;
const SIZE = 9.5;

/** A card's text: its first line of text as its title, the rest below it, muted. */
function cardLines(ctx: RenderContext, row: NodeJSON, width: number): Line[] {
  const lines: Line[] = [];
  for (const cell of row.content ?? []) {
    for (const block of cell.content ?? []) {
      const para = block.type === 'paragraph' ? block : { type: 'paragraph', content: [{ type: 'text', text: plainText(block) }] };
      const title = lines.length === 0;
      const spans = spansOf(ctx, para, { size: SIZE, color: title ? COLORS.text : COLORS.muted, bold: title });
      if (!spans.some((s) => s.text.trim())) continue;
      lines.push(...ctx.w.lines(spans, width));
    }
  }
  return lines;
}

/**
 * A GitBook card table (`<table data-view="cards">`) as the site shows it: cards side by side,
 * two or three a row, each row of cards kept on one page; a table of as many columns as a
 * card has cells would break its words mid-word.
 */
export function cardGrid(ctx: RenderContext, rows: NodeJSON[]): void {
  const { w } = ctx;
  const cards = rows.filter((r) => !(r.content ?? []).every((c) => c.type === 'tableHeader'));
  const perRow = Math.max(1, Math.min(3, cards.length, Math.floor((w.width + GAP) / (MIN_CARD + GAP))));
  const width = (w.width - GAP * (perRow - 1)) / perRow;
  for (let i = 0; i < cards.length; i += perRow) {
    const laid = cards.slice(i, i + perRow).map((card) => cardLines(ctx, card, width - 2 * PAD));
    const h = Math.max(...laid.map((ls) => ls.reduce((n, l) => n + l.height, 0))) + 2 * PAD;
    w.ensure(h);
    const y = w.y;
    laid.forEach((lines, k) => {
      const x = w.x + k * (width + GAP);
      w.fillRect(x, y, width, h, COLORS.codeBg, 6);
      w.strokeRect(x, y, width, h, COLORS.rule, 6);
      w.y = y + PAD;
      w.drawLines(lines, { x: x + PAD, width: width - 2 * PAD, fixed: true });
    });
    w.y = y + h + GAP;
  }
  w.y += 2;
}
