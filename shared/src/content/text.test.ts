import { describe, expect, it } from 'vitest';
import { bodySections, bodyText, headingAnchors, markdownToBody } from './index';

const { doc } = markdownToBody(
  [
    'Intro line with **bold** text.',
    '',
    '# Install',
    '',
    '* Run `npm i`',
    '',
    '{% hint style="info" %}',
    '## Install',
    '',
    'Nested heading in a hint.',
    '{% endhint %}',
    '',
    '## Café & crème!',
    '',
    '| Key | Value |',
    '| --- | --- |',
    '| a | 1 |',
    '',
    '<figure><img src="x.png" alt="Diagram"><figcaption><p>The flow</p></figcaption></figure>',
    '',
    '{% tabs %}',
    '{% tab title="macOS" %}',
    '```bash',
    'brew install acme',
    '```',
    '{% endtab %}',
    '{% endtabs %}',
  ].join('\n'),
);

describe('plain text', () => {
  it('gives one line per block, alt texts, captions and tab titles included', () => {
    expect(bodyText(doc)).toBe(
      [
        'Intro line with bold text.',
        'Install',
        'Run npm i',
        'Install',
        'Nested heading in a hint.',
        'Café & crème!',
        'Key | Value',
        'a | 1',
        'Diagram',
        'The flow',
        'macOS',
        'brew install acme',
      ].join('\n'),
    );
  });

  it('splits sections at headings with unique anchors that match the outline', () => {
    const sections = bodySections(doc);
    expect(sections).toEqual([
      { anchor: null, title: '', level: 0, text: 'Intro line with bold text.' },
      { anchor: 'install', title: 'Install', level: 1, text: 'Run npm i' },
      { anchor: 'install-2', title: 'Install', level: 2, text: 'Nested heading in a hint.' },
      {
        anchor: 'cafe-creme',
        title: 'Café & crème!',
        level: 2,
        text: ['Key | Value', 'a | 1', 'Diagram', 'The flow', 'macOS', 'brew install acme'].join('\n'),
      },
    ]);
    expect(headingAnchors(doc).map((heading) => heading.anchor)).toEqual(sections.slice(1).map((section) => section.anchor));
  });

  it('anchors headings without letters too', () => {
    const { doc: symbols } = markdownToBody('# ???\n\n# ???\n\n# 日本語のガイド\n');
    expect(headingAnchors(symbols).map((heading) => heading.anchor)).toEqual(['section', 'section-2', '日本語のガイド']);
  });
});
