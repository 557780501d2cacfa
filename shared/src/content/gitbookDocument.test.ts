import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bodyToGitbookDocument, bodyToMarkdown, gitbookDocumentToBody, markdownToBody } from './index';

const fixturesDir = fileURLToPath(new URL('./fixtures', import.meta.url));
const fixtures = readdirSync(fixturesDir).filter((name) => name.endsWith('.md'));

describe('GitBook documents', () => {
  it.each(fixtures)('%s: body → document → body is the identity', (name) => {
    const { doc } = markdownToBody(readFileSync(join(fixturesDir, name), 'utf8'));
    const document = bodyToGitbookDocument(doc);
    expect(JSON.parse(JSON.stringify(document))).toEqual(document);
    expect(gitbookDocumentToBody(document)).toEqual(doc);
    expect(bodyToGitbookDocument(doc)).toEqual(document);
  });

  it('uses GitBook block names, leaves with marks and link inlines with refs', () => {
    const { doc } = markdownToBody('## Title\n\nSay **hi** to [Ann](page:Ann00000000000000000001#bio).\n\n***\n');
    expect(bodyToGitbookDocument(doc)).toEqual({
      object: 'document',
      data: { schemaVersion: 1 },
      nodes: [
        {
          object: 'block',
          type: 'heading-2',
          key: 'b0',
          data: {},
          nodes: [{ object: 'text', key: 'b0.0', leaves: [{ object: 'leaf', text: 'Title', marks: [] }] }],
        },
        {
          object: 'block',
          type: 'paragraph',
          key: 'b1',
          data: {},
          nodes: [
            {
              object: 'text',
              key: 'b1.0',
              leaves: [
                { object: 'leaf', text: 'Say ', marks: [] },
                { object: 'leaf', text: 'hi', marks: [{ object: 'mark', type: 'bold', data: {} }] },
                { object: 'leaf', text: ' to ', marks: [] },
              ],
            },
            {
              object: 'inline',
              type: 'link',
              key: 'b1.1',
              data: { ref: { kind: 'page', page: 'Ann00000000000000000001', anchor: 'bio' } },
              nodes: [{ object: 'text', key: 'b1.2', leaves: [{ object: 'leaf', text: 'Ann', marks: [] }] }],
            },
            { object: 'text', key: 'b1.3', leaves: [{ object: 'leaf', text: '.', marks: [] }] },
          ],
        },
        { object: 'block', type: 'divider', key: 'b2', isVoid: true, data: {}, nodes: [] },
      ],
    });
  });

  it('reads documents written by GitBook, giving up unknown blocks but not their text', () => {
    const body = gitbookDocumentToBody({
      object: 'document',
      data: { schemaVersion: 9 },
      nodes: [
        {
          object: 'block',
          type: 'heading-1',
          nodes: [{ object: 'text', leaves: [{ text: 'Welcome', marks: [{ type: 'italic' }] }] }],
        },
        {
          object: 'block',
          type: 'swagger',
          data: { method: 'get' },
          nodes: [
            {
              object: 'block',
              type: 'paragraph',
              nodes: [{ object: 'text', leaves: [{ text: 'GET /pets\nlist', marks: [{ type: 'strikethrough' }] }] }],
            },
          ],
        },
        {
          object: 'block',
          type: 'list-unordered',
          nodes: [{ object: 'block', type: 'list-item', data: { checked: true }, nodes: [{ object: 'text', leaves: [{ text: 'done' }] }] }],
        },
        {
          object: 'block',
          type: 'images',
          nodes: [{ object: 'block', type: 'image', data: { ref: { kind: 'file', file: 'Img1' }, caption: 'Shot' } }],
        },
        {
          object: 'block',
          type: 'code',
          data: { syntax: 'js' },
          nodes: [
            { object: 'block', type: 'code-line', nodes: [{ object: 'text', leaves: [{ text: 'a()' }] }] },
            { object: 'block', type: 'code-line', nodes: [{ object: 'text', leaves: [{ text: 'b()' }] }] },
          ],
        },
        { object: 'inline', type: 'mention', nodes: [{ object: 'text', leaves: [{ text: '@ann' }] }] },
        'garbage',
      ],
    });
    expect(bodyToMarkdown(body)).toBe(
      [
        '# _Welcome_',
        '',
        '~~GET /pets~~\\',
        '~~list~~',
        '',
        '* [x] done',
        '',
        '<figure><img src="file:Img1" alt=""><figcaption><p>Shot</p></figcaption></figure>',
        '',
        '```js',
        'a()',
        'b()',
        '```',
        '',
        '@ann',
        '',
      ].join('\n'),
    );
  });
});
