import { describe, expect, it } from 'vitest';
import { bodyToMarkdown, evaluateText, evaluateVariables, markdownToBody } from './index';

describe('variables', () => {
  const scopes = { space: { version: '2.4.1', product: 'Acme' }, page: { releaseDate: 'June 11' } };

  it('evaluates space and page variables in text, code and captions', () => {
    const { doc } = markdownToBody(
      [
        '# {{ space.vars.product }} {{space.vars.version}}',
        '',
        'Released on {{ page.vars.releaseDate }}; see **{{ space.vars.missing }}**.',
        '',
        '```bash',
        'npm i acme@{{ space.vars.version }}',
        '```',
        '',
        '<figure><img src="x.png" alt="{{ space.vars.product }} logo"><figcaption><p>Version {{ space.vars.version }}</p></figcaption></figure>',
      ].join('\n'),
    );
    expect(bodyToMarkdown(evaluateVariables(doc, scopes))).toBe(
      [
        '# Acme 2.4.1',
        '',
        'Released on June 11; see **{{ space.vars.missing }}**.',
        '',
        '```bash',
        'npm i acme@2.4.1',
        '```',
        '',
        '<figure><img src="x.png" alt="Acme logo"><figcaption><p>Version 2.4.1</p></figcaption></figure>',
        '',
      ].join('\n'),
    );
    expect(JSON.stringify(doc)).toContain('{{ space.vars.version }}');
  });

  it('leaves anything that is not a plain variable reference as written', () => {
    const text =
      "{{ space.vars.constructor }} {{ space.vars.__proto__ }} {{ page.vars.version }} {{ constructor.constructor('alert(1)')() }} {{ space.vars.version | upcase }}";
    expect(evaluateText(text, { space: { version: '1' } })).toBe(text);
    expect(evaluateText('{{ page.vars.version }}', {})).toBe('{{ page.vars.version }}');
  });
});
