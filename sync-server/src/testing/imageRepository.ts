import { solidPng } from './pdfContent';

/**
 * A documentation repository whose pages write their images as GitBook writes them in
 * HTML: interface icons inline in paragraphs and table cells, `<figure>` with a caption,
 * `<picture>` with a dark variant in `<source srcset>`, a full-width frame, an image
 * inside an expandable, an `<img srcset>` with a density candidate, and one image whose
 * file is missing. Its links to pages read as their file names, as GitBook writes content
 * references. Each image has its own size and colour, so a test can tell them apart.
 */
export const IMAGE_ASSETS: Record<string, Buffer> = {
  // drawn larger than the text, as interface icons usually are, and shown at its height
  'gear.png': solidPng(48, 48, [230, 120, 20]),
  'save icon.png': solidPng(18, 18, [20, 150, 70]),
  'dashboard.png': solidPng(640, 240, [40, 90, 200]),
  'logo-light.png': solidPng(320, 90, [250, 210, 60]),
  'logo-dark.png': solidPng(320, 90, [40, 40, 60]),
  'wide banner.png': solidPng(900, 120, [20, 160, 150]),
  'export.png': solidPng(300, 120, [150, 60, 190]),
  'chart.png': solidPng(200, 100, [200, 50, 70]),
  'chart@2x.png': solidPng(400, 200, [200, 50, 70]),
};

const text = (lines: string[]) => new TextEncoder().encode(`${lines.join('\n')}\n`);

/** Every image form, the page that shows them all. */
export const INTERFACE_MD = [
  '---',
  'description: Where everything is on screen.',
  '---',
  '',
  '# The interface',
  '',
  'Click the gear <img src="../.gitbook/assets/gear.png" alt="" data-size="line"> to open the settings, then <img src="../.gitbook/assets/save%20icon.png" alt="Save" data-size="line"> to keep them.',
  '',
  '| Button | What it does |',
  '| --- | --- |',
  '| <img src="../.gitbook/assets/gear.png" alt="Settings" data-size="line"> | Opens the settings |',
  '| <img src="../.gitbook/assets/save icon.png" alt="Save" data-size="line"> | Saves |',
  '',
  '<figure><img src="../.gitbook/assets/dashboard.png" alt="The dashboard"><figcaption><p>The dashboard after sign-in</p></figcaption></figure>',
  '',
  '<figure><picture><source srcset="../.gitbook/assets/logo-dark.png" media="(prefers-color-scheme: dark)"><img src="../.gitbook/assets/logo-light.png" alt="Acme logo"></picture><figcaption><p>Our logo, light and dark</p></figcaption></figure>',
  '',
  '<div data-full-width="true"><figure><img src="../.gitbook/assets/wide%20banner.png" alt="Release banner"><figcaption><p>A full-width banner</p></figcaption></figure></div>',
  '',
  '<p align="center"><img src="../.gitbook/assets/chart.png" srcset="../.gitbook/assets/chart.png 1x, ../.gitbook/assets/chart@2x.png 2x" alt="Chart" width="200"></p>',
  '',
  '<details>',
  '',
  '<summary>Where is the export button?</summary>',
  '',
  '<figure><img src="../.gitbook/assets/export.png" alt="Export menu" width="240"><figcaption></figcaption></figure>',
  '',
  'It sits under <img src="../.gitbook/assets/gear.png" alt="the gear" data-size="line">.',
  '',
  '</details>',
  '',
  '<figure><img src="../.gitbook/assets/missing.png" alt="Gone"><figcaption></figcaption></figure>',
];

/** The repository: a SUMMARY, a README with content references, the interface page, a quickstart. */
export function imageRepository(): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {
    'SUMMARY.md': text([
      '# Table of contents',
      '',
      '* [Welcome](README.md)',
      '* [Quickstart guide](getting-started/quickstart.md)',
      '* [Interface tour](guides/interface.md)',
    ]),
    'README.md': text([
      '# Welcome',
      '',
      'Read on:',
      '',
      '{% content-ref url="getting-started/quickstart.md" %}',
      '[quickstart.md](getting-started/quickstart.md)',
      '{% endcontent-ref %}',
      '',
      '{% content-ref url="guides/interface.md" %}',
      '[interface.md](guides/interface.md)',
      '{% endcontent-ref %}',
      '',
      'See [quickstart.md](getting-started/quickstart.md), [getting-started/quickstart.md](getting-started/quickstart.md) and [the tour](guides/interface.md).',
    ]),
    'getting-started/quickstart.md': text([
      '# Quickstart',
      '',
      'Open the settings <img src="../.gitbook/assets/gear.png" alt="gear" data-size="line"> first, not <img src="../.gitbook/assets/old%20gear.png" alt="old gear" data-size="line">.',
      '',
      'Back to [README.md](../README.md).',
    ]),
    'guides/interface.md': text(INTERFACE_MD),
  };
  for (const [name, bytes] of Object.entries(IMAGE_ASSETS)) files[`.gitbook/assets/${name}`] = new Uint8Array(bytes);
  return files;
}
