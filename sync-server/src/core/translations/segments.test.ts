import { markdownToBody } from '@quire/shared/content/index';
import { describe, expect, it } from 'vitest';
import { bodySegments, textSegments } from './segments';

describe('translation segments', () => {
  it('sends a paragraph whole, marks as tags, and maps the marks back where the translation put them', () => {
    const body = markdownToBody(
      'Acme is a **fast** and *reliable* tool: see [the guide](https://example.com/g) for {{ space.vars.product }} and `acme init`.\n',
    ).doc;
    const segments = bodySegments(body);
    expect(segments.map((s) => s.text)).toEqual([
      'Acme is a <b>fast</b> and <i>reliable</i> tool: see <a href="#q0">the guide</a> for <span data-q="0"></span> and <span data-q="1"></span>.',
    ]);
    expect(segments[0]!.plain).toBe('Acme is a fast and reliable tool: see the guide for  and .');
    // The engine reorders the sentence; each mark follows its words.
    segments[0]!.set(
      'Acme est un outil <i>fiable</i> et <b>rapide</b> : voir <span data-q="1"></span> et <a href="#q0">le guide</a> pour <span data-q="0"></span>.',
    );
    expect(body.content![0]!.content).toEqual([
      { type: 'text', text: 'Acme est un outil ' },
      { type: 'text', text: 'fiable', marks: [{ type: 'italic' }] },
      { type: 'text', text: ' et ' },
      { type: 'text', text: 'rapide', marks: [{ type: 'bold' }] },
      { type: 'text', text: ' : voir ' },
      { type: 'text', text: 'acme init', marks: [{ type: 'code' }] },
      { type: 'text', text: ' et ' },
      { type: 'text', text: 'le guide', marks: [{ type: 'link', attrs: { href: 'https://example.com/g', title: null } }] },
      { type: 'text', text: ' pour {{ space.vars.product }}.' },
    ]);
  });

  it('puts back what a provider dropped, and reads entities', () => {
    const body = markdownToBody('Use {{ space.vars.cli }} & enjoy.\n').doc;
    const [segment] = bodySegments(body);
    expect(segment!.text).toBe('Use <span data-q="0"></span> &amp; enjoy.');
    segment!.set('Utilisez &amp; profitez.');
    expect(body.content![0]!.content).toEqual([{ type: 'text', text: 'Utilisez & profitez.{{ space.vars.cli }}' }]);
  });

  it('leaves code blocks, blocks without letters and URLs in titles untouched', () => {
    const body = markdownToBody('```bash\nnpm install\n```\n\n`only code`\n').doc;
    expect(bodySegments(body)).toEqual([]);
    let title = 'Docs at https://example.com';
    const [s] = textSegments(title, (v) => (title = v));
    expect(s!.text).toBe('Docs at <span data-q="0"></span>');
    s!.set('Documentation sur <span data-q="0"></span>');
    expect(title).toBe('Documentation sur https://example.com');
  });
});
