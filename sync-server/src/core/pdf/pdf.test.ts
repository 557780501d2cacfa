import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { markdownToBody } from '@quire/shared/content/index';
import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { printableImage } from './images';
import { renderPdf } from './index';
import { emptyResources, operationKey } from './model';
import { SVG, showcaseBody, solidPng } from '../../testing/pdfContent';

const dir = mkdtempSync(join(tmpdir(), 'quire-pdf-'));
const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { maxBuffer: 64 * 1024 * 1024 }).toString();

let pdf: Buffer;
let file: string;
let text: string;
let pages: string[];

beforeAll(async () => {
  const resources = emptyResources();
  resources.images.set('file:img1', { data: solidPng(40, 20, [200, 40, 40]) });
  resources.images.set('file:anim', { unsupported: 'image/gif' });
  resources.images.set('file:logo', { data: solidPng(20, 20, [20, 160, 60]) });
  const png = sharp(solidPng(60, 30, [40, 90, 200]));
  resources.images.set('file:svg', await printableImage(SVG, 'image/svg+xml'));
  resources.images.set('file:gif', await printableImage(await png.clone().gif().toBuffer(), 'image/gif'));
  resources.images.set('file:webp', await printableImage(await png.clone().webp().toBuffer(), 'image/webp'));
  resources.images.set('https://images.test/shot.webp', { unsupported: 'not reachable' });
  resources.files.set('f1', { url: 'http://quire.test/files/s/f1/guide.pdf?sig=x', name: 'guide.pdf' });
  resources.reusable.set('rc1', markdownToBody('Shared paragraph from reusable content.').doc);
  resources.operations.set(
    operationKey({ spec: 'petstore', path: '/pets', method: 'get' }),
    markdownToBody('### List pets\n\n`GET /pets`\n\nReturns every pet.').doc,
  );
  const body = showcaseBody([
    { type: 'image', attrs: { src: 'file:img1', alt: 'Red box', caption: 'A red box' } },
    { type: 'image', attrs: { src: 'file:anim', alt: 'Animation' } },
    { type: 'image', attrs: { src: 'file:svg', alt: 'Vector logo' } },
    { type: 'image', attrs: { src: 'file:gif', alt: 'Moving picture' } },
    { type: 'image', attrs: { src: 'file:webp', alt: 'Photo' } },
    { type: 'image', attrs: { src: 'https://images.test/shot.webp', alt: 'Screenshot' } },
    { type: 'codeBlock', attrs: { language: 'mermaid' }, content: [{ type: 'text', text: 'pie title Pets\n  "Dogs" : 386' }] },
    {
      type: 'htmlBlock',
      attrs: { html: '<figure><img src="file:logo" alt="Logo"><figcaption><p>The green logo</p></figcaption></figure>' },
    },
    { type: 'file', attrs: { fileId: 'f1', caption: 'The guide' } },
    { type: 'contentRef', attrs: { href: 'page:p2', title: 'Install' } },
    {
      type: 'paragraph',
      content: [
        { type: 'text', text: 'See ' },
        { type: 'text', text: 'the setup section', marks: [{ type: 'link', attrs: { href: 'page:p2#setup' } }] },
        { type: 'text', text: ' and ' },
        { type: 'text', text: 'scripts above', marks: [{ type: 'link', attrs: { href: '#scripts' } }] },
        { type: 'text', text: ' and ' },
        { type: 'text', text: 'nowhere', marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }] },
      ],
    },
  ]);
  const long = Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1} of a long page that runs over several sheets of paper.`).join(
    '\n\n',
  );
  pdf = await renderPdf({
    title: 'Acme Docs',
    subtitle: 'Acme Inc.',
    pages: [
      { id: 'p1', title: 'Getting started', depth: 0, description: 'How to begin', body },
      { id: 'p2', title: 'Install', depth: 1, body: markdownToBody(`## Setup\n\nBack to [the start](page:p1).\n\n${long}`).doc },
    ],
    resources,
  });
  file = join(dir, 'showcase.pdf');
  writeFileSync(file, pdf);
  text = run('pdftotext', [file, '-']);
  pages = text.split('\f');
}, 60_000);

/** Raw PDF objects are written uncompressed by pdfkit (only content streams are deflated). */
const count = (re: RegExp) => (pdf.toString('latin1').match(re) ?? []).length;

describe('PDF export', () => {
  it('opens with a cover and a contents page whose entries carry the page they start on', () => {
    expect(pages[0]).toContain('Acme Docs');
    expect(pages[0]).toContain('Acme Inc.');
    expect(pages[1]).toContain('Contents');
    const start = (title: string) => pages.findIndex((p, i) => i > 1 && p.includes(title)) + 1;
    const toc = pages[1]!.replace(/\s+/g, ' ');
    expect(toc).toMatch(new RegExp(`Getting started ${start('Getting started')}\\b`));
    expect(toc).toMatch(new RegExp(`Install ${start('Back to the start')}\\b`));
  });

  it('puts a running header and page numbers on every page but the cover', () => {
    const total = pages.filter((p) => p.trim()).length;
    expect(total).toBeGreaterThan(4);
    expect(pages[0]).not.toContain('Page 1 of');
    for (let i = 1; i < total; i++) {
      expect(pages[i]).toContain(`Page ${i + 1} of ${total}`);
      expect(pages[i]).toContain('Acme Docs');
    }
    // A page that continues on the next sheet keeps its title in the header.
    const install = pages.filter((p) => p.includes('Paragraph'));
    expect(install.length).toBeGreaterThan(1);
    for (const p of install) expect(p).toContain('Install');
  });

  it('makes working links: contents rows, internal references and external URLs', () => {
    const links = count(/\/Subtype \/Link/g);
    // Two contents rows, the website link, the file, the content reference, two internal links and the link back.
    expect(links).toBeGreaterThanOrEqual(8);
    expect(pdf.toString('latin1')).toContain('(https://example.com/docs)');
    expect(pdf.toString('latin1')).toContain('(http://quire.test/files/s/f1/guide.pdf?sig=x)');
    expect(pdf.toString('latin1')).not.toContain('javascript:');
    const dests = run('pdfinfo', ['-dests', file]);
    for (const d of ['p/p1', 'p/p2', 'p/p2#setup', 'p/p1#scripts', 'p/p1#contract-blocks']) expect(dests).toContain(d);
  });

  it('has bookmarks for pages, nested as the page tree, with their headings', () => {
    const xml = run('pdftohtml', ['-xml', '-stdout', '-i', '-f', '1', '-l', '1', file]);
    const outline = xml.slice(xml.indexOf('<outline>')).replace(/\s+/g, '');
    expect(outline).toBe(
      '<outline><itempage="2">Contents</item><itempage="3">Gettingstarted</item><outline><itempage="3">Scripts</item>' +
        '<itempage="4">Contractblocks</item><itempage="6">Install</item><outline><itempage="6">Setup</item></outline></outline></outline></pdf2xml>',
    );
  });

  it('keeps inline styles, boxes code, grids tables and shows every block as content', () => {
    const fonts = run('pdffonts', [file]);
    for (const face of [
      'NotoSans-Regular',
      'NotoSans-Bold',
      'NotoSans-Italic',
      'NotoSansMono',
      'NotoSansArabic',
      'NotoSansSC',
      'NotoEmoji',
    ])
      expect(fonts).toContain(face);
    for (const s of [
      'inline code',
      'function hello() {',
      'return "world";',
      'region',
      'retries',
      'Warning',
      'Careful: this is a warning hint.',
      'macOS',
      'Use apt.',
      'More details',
      'Hidden text shown in print.',
      'Demo video',
      'Plan',
      '10 €',
      'Left column text',
      'Right column text',
      'First release',
      'E = mc^2',
      'a^2+b^2',
      'marked',
      'pie title Pets',
      'List pets',
      'GET /pets',
      'Shared paragraph from reusable content.',
      'A red box',
      'Animation (image/gif, not embedded)',
      'Screenshot (not reachable, not embedded)',
      'Diagram',
      'The guide',
    ])
      expect(text).toContain(s);
    expect(text).not.toContain('alert(1)');
    expect(text).not.toContain('<table');
    expect(text).not.toContain('{% ');
    // The PNG image block, the one inside HTML kept as written, SVG, GIF and WebP, and the
    // Mermaid flowchart drawn as a picture (its source is not printed); the pie chart,
    // which the server does not draw, prints as its source.
    expect(count(/\/Subtype \/Image/g) - count(/\/SMask \d+ 0 R/g)).toBe(6);
    expect(text).not.toContain('A-->B');
    expect(text).toContain('The green logo');
    // Code keeps its indentation.
    const layout = run('pdftotext', ['-layout', file, '-']);
    const indent = (line: string) => {
      const found = layout.split('\n').find((l) => l.trimStart().startsWith(line));
      return found ? found.length - found.trimStart().length : -1;
    };
    expect(indent('return "world";')).toBe(indent('function hello() {') + 2);
  });

  it('prints Chinese, Japanese, emoji and Arabic, the Arabic set right to left', () => {
    for (const s of ['中文内容', '这是一个测试', 'ひらがなとカタカナ', '日本語', '😀', '🚀', 'مرحبا', 'بالعالم']) expect(text).toContain(s);
    // Copied or extracted, Arabic reads in the order it was written, with its own letters
    // (nūn shares its shaped glyph with bāʾ) and brackets (drawn mirrored). pdftotext marks
    // direction runs with embedding controls, left out here.
    const arabic = text.replace(/[\u202a-\u202e]/g, '');
    expect(arabic).toContain('مرحبا بالعالم');
    expect(arabic).toContain('هذا نص عربي (مع أقواس) ورقم');
    expect(text).not.toMatch(/\?\?/);
    // The Arabic line ends at the right margin: its last word (first on the left) starts past the middle.
    const bbox = run('pdftotext', ['-bbox', '-f', '3', '-l', '3', file, '-']);
    // pdftotext lists right-to-left words in drawing order, letters reversed.
    const word = /<word xMin="([\d.]+)"[^>]*>(?:مرحبا|ابحرم)<\/word>/.exec(bbox);
    expect(word).not.toBeNull();
    expect(Number(word![1])).toBeGreaterThan(595 / 2);
  });

  it('prints Korean, Hebrew, Thai and Devanagari, and an emoji sequence or a flag as one glyph', async () => {
    const body = markdownToBody('한국어 문서입니다\n\nשלום עולם\n\nภาษาไทย\n\nनमस्ते दुनिया\n\nA 👩‍💻 B\n\nC 🇯🇵 D\n\nE 😀 F').doc;
    const out = join(dir, 'scripts.pdf');
    writeFileSync(out, await renderPdf({ title: 'Scripts', pages: [{ id: 's', title: 'Scripts', depth: 0, body }] }));
    const printed = run('pdftotext', [out, '-']);
    // (Devanagari's vowel sign drawn before its consonant, as in दुनिया, comes out in drawing order.)
    for (const s of ['한국어 문서입니다', 'ภาษาไทย', 'नमस्ते']) expect(printed).toContain(s);
    expect(printed.replace(/[\u202a-\u202e]/g, '')).toContain('שלום עולם');
    expect(printed).not.toMatch(/\?/);
    // One glyph each: as wide as a single emoji, not as two (woman + laptop, J + P).
    const bbox = run('pdftotext', ['-bbox', out, '-']);
    const width = (word: string) => {
      const m = new RegExp(`<word xMin="([\\d.]+)"[^>]*xMax="([\\d.]+)"[^>]*>${word}</word>`).exec(bbox);
      expect(m, word).not.toBeNull();
      return Number(m![2]) - Number(m![1]);
    };
    const single = width('😀');
    expect(width('👩\u200d💻')).toBeCloseTo(single, 1);
    expect(width('🇯🇵')).toBeCloseTo(single, 1);
  });

  it('prints code in the colors the site shows it in: keywords, strings and comments of a known language', async () => {
    const source = 'def greet(name):\n    # say hello\n    return "hello " + name\n';
    const pixels = async (language: string) => {
      const body = markdownToBody('```' + language + '\n' + source + '```\n').doc;
      const out = join(dir, `code-${language || 'plain'}.pdf`);
      writeFileSync(out, await renderPdf({ title: 'Code', pages: [{ id: 'c', title: 'Code', depth: 0, body }] }));
      execFileSync('pdftoppm', ['-png', '-r', '100', '-f', '3', '-l', '3', out, join(dir, `code-${language || 'plain'}`)]);
      const png = join(dir, `code-${language || 'plain'}-3.png`);
      const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
      // Pixels near the site's keyword red (#cf222e) and string blue (#0a3069).
      let red = 0;
      let blue = 0;
      for (let i = 0; i < data.length; i += info.channels) {
        const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
        if (r > 170 && g < 80 && b < 90) red++;
        if (r < 40 && g < 80 && b > 80 && b < 130) blue++;
      }
      return { red, blue };
    };
    const python = await pixels('python');
    expect(python.red).toBeGreaterThan(20);
    expect(python.blue).toBeGreaterThan(20);
    expect(await pixels('')).toEqual({ red: 0, blue: 0 });
  });

  it('prints a card table as cards side by side, their words whole', async () => {
    const card = (title: string, text: string) => `<tr><td><strong>${title}</strong></td><td>${text}</td><td></td></tr>`;
    const html =
      '<table data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-target></th></tr></thead><tbody>' +
      card('CREATE', 'Make a new space') +
      card('Integrations', 'Connect your tools') +
      card('Permissions', 'Who may edit') +
      card('Publishing', 'Put it online') +
      '</tbody></table>';
    const out = join(dir, 'cards.pdf');
    writeFileSync(out, await renderPdf({ title: 'Cards', pages: [{ id: 'c', title: 'Cards', depth: 0, body: markdownToBody(html).doc }] }));
    const bbox = run('pdftotext', ['-bbox', '-f', '3', '-l', '3', out, '-']);
    const at = (word: string) => {
      const m = new RegExp(`<word xMin="([\\d.]+)" yMin="([\\d.]+)"[^>]*>${word}</word>`).exec(bbox);
      expect(m, word).not.toBeNull();
      return { x: Number(m![1]), y: Number(m![2]) };
    };
    // Three a row on a portrait page: the first three side by side, the fourth below the first.
    const [a, b, c, d] = ['CREATE', 'Integrations', 'Permissions', 'Publishing'].map(at) as { x: number; y: number }[];
    expect(b!.y).toBeCloseTo(a!.y, 0);
    expect(c!.y).toBeCloseTo(a!.y, 0);
    expect(b!.x).toBeGreaterThan(a!.x + 100);
    expect(c!.x).toBeGreaterThan(b!.x + 100);
    expect(d!.x).toBeCloseTo(a!.x, 0);
    expect(d!.y).toBeGreaterThan(a!.y + 20);
    // Each card's text under its title, in one piece.
    expect(run('pdftotext', ['-layout', '-f', '3', '-l', '3', out, '-'])).toMatch(/Make a new space/);
  });

  it('prints the layout and HTML constructs of imported repositories as content, never as their tags', async () => {
    const fixture = readFileSync(join(__dirname, '../../../../shared/src/content/fixtures/layout-and-html.md'), 'utf8');
    const body = markdownToBody(fixture).doc;
    const out = join(dir, 'fixture.pdf');
    writeFileSync(out, await renderPdf({ title: 'Fixture', pages: [{ id: 'f', title: 'Layout and HTML', depth: 0, body }] }));
    const printed = run('pdftotext', [out, '-']);
    for (const s of [
      'Install',
      'Continue',
      'Set up',
      'The logo',
      '<b>bold</b> stays code',
      'A deep heading',
      'First release.',
      'Faster search',
      'Diagram',
      'POST /pet',
      'GET /pet/{petId}',
    ])
      expect(printed).toContain(s);
    expect(printed).not.toMatch(/\{%|<mark>|<figure|<div|<a href/);
    expect(run('pdfinfo', ['-dests', out])).toContain('p/f#getting-started');
  });
});
