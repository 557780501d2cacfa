/**
 * PDF export benchmark: a 50-page space (prose, headings, code, tables, hints, lists,
 * Chinese, Japanese, Korean, Arabic and emoji, and a wide screenshot every fifth page)
 * rendered to a finished PDF, with the time and bytes per printed page, cold (fonts loaded on
 * first use) and warm, with the peak memory it took; next to a baseline measured in the
 * same run: the same text written as a plain pdfkit text dump in one built-in font (no
 * layout, no links, no fonts to embed).
 *
 * `npm run bench -- pdf`, or `node --import tsx bench/pdf.ts`.
 */
import { randomBytes } from 'node:crypto';
import { markdownToBody } from '@quire/shared/content/index';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import { printableImage } from '../sync-server/src/core/pdf/images';
import { renderPdf } from '../sync-server/src/core/pdf/index';
import { type PdfImage, type PdfPage, emptyResources } from '../sync-server/src/core/pdf/model';

const PAGES = 50;

const PAGE_MARKDOWN = (
  i: number,
) => `Quire keeps documentation next to the people who write it. This is page ${i}, with **bold**, *italic*, \`code\` and a [link](https://example.com/${i}).

## Install

\`\`\`bash
npm install -g @acme/cli
acme login --token "$ACME_TOKEN"
\`\`\`

{% hint style="info" %}
You need Node.js 20 or later.
{% endhint %}

## Configure

| Option | Default | Meaning |
| --- | --- | --- |
| region | eu | Where your data lives |
| retries | 3 | How often a request is retried |

- Create a project
- Invite your team
  1. Open settings
  2. Add people

中文说明：安装后运行命令。日本語：インストールしてください。한국어: 설치 후 실행하세요. مرحبا بك في الدليل. 🚀 👩‍💻
${i % 5 === 0 ? '\n![The dashboard](file:shot)\n' : ''}
${Array.from({ length: 6 }, () => 'A longer paragraph of prose follows, so that pages carry a realistic amount of text that wraps over several lines and sometimes onto the next sheet of paper.').join(' ')}
`;

function pages(): PdfPage[] {
  return Array.from({ length: PAGES }, (_, i) => ({
    id: `page${i}`,
    title: `Chapter ${i + 1}`,
    depth: i % 5 === 0 ? 0 : 1,
    body: markdownToBody(PAGE_MARKDOWN(i + 1)).doc,
  }));
}

function plainText(node: { text?: string; content?: unknown[] }): string {
  return (node.text ?? '') + ((node.content as { text?: string; content?: unknown[] }[] | undefined) ?? []).map(plainText).join(' ');
}

/** The baseline: every page's text in Helvetica, Latin-1 only, as an unstyled dump. */
function plainDump(list: PdfPage[]): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 56 });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  for (const p of list) {
    doc.addPage();
    doc.font('Helvetica-Bold').fontSize(20).text(p.title);
    doc
      .font('Helvetica')
      .fontSize(11)
      .text(plainText(p.body).replace(/[^\x20-\xff]/g, '?'));
  }
  doc.end();
  return done;
}

async function measure<T>(fn: () => Promise<T>): Promise<{ ms: number; peakMb: number; result: T }> {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const start = performance.now();
  const result = await fn();
  const ms = performance.now() - start;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { ms, peakMb: (peak - before) / 1024 / 1024, result };
}

/** A 2560×1440 screenshot's worth of pixels (detail everywhere, as a busy screen has), as a PNG. */
async function screenshot(): Promise<Buffer> {
  return sharp(randomBytes(2560 * 1440 * 3), { raw: { width: 2560, height: 1440, channels: 3 } })
    .blur(1.2)
    .png()
    .toBuffer();
}

export async function runPdfBench() {
  const list = pages();
  const shot = await screenshot();
  // As the export does: images made printable (scaled to what print needs) before drawing.
  const images = new Map<string, PdfImage>([['file:shot', await printableImage(shot, 'image/png')]]);
  const input = { title: 'Benchmark handbook', subtitle: 'Acme', pages: list, resources: { ...emptyResources(), images } };
  const base = await measure(() => plainDump(list));
  const cold = await measure(() => renderPdf(input));
  const warm = await measure(() => renderPdf(input));
  const sheets = (cold.result.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;
  const line = (name: string, m: { ms: number; peakMb: number; result: Buffer }) =>
    `${name.padEnd(34)} ${(m.ms / 1000).toFixed(2).padStart(6)} s  ${(m.result.length / 1024).toFixed(0).padStart(6)} KB  +${m.peakMb.toFixed(0)} MB RSS peak  ${(m.ms / base.ms).toFixed(1)}× baseline time`;
  console.log(`${PAGES} pages of content, ${sheets} PDF pages; the screenshot is ${(shot.length / 1024).toFixed(0)} KB as uploaded`);
  console.log(line('baseline: plain text dump', base));
  console.log(line('export, first (fonts loaded)', cold));
  console.log(line('export, warm', warm));
  console.log(
    `per PDF page, warm: ${(warm.ms / sheets).toFixed(1)} ms and ${(warm.result.length / 1024 / sheets).toFixed(1)} KB (baseline ${(base.ms / sheets).toFixed(1)} ms)`,
  );
  console.log(`process peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}

if (import.meta.url === `file://${process.argv[1]}`) await runPdfBench();
