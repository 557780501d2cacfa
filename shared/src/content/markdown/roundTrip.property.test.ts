import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { readBody, writeBody } from '../body';
import type { NodeJSON } from '../json';
import { normalizeBody } from '../normalize';
import { markdownToBody } from './parse';
import { bodyToMarkdown } from './serialize';

/** Characters markdown treats as syntax, mixed with plain ones. */
const tricky = fc.constantFrom(
  'a',
  'b',
  'é',
  '1',
  '*',
  '_',
  '`',
  '[',
  ']',
  '(',
  ')',
  '<',
  '>',
  '&',
  '#',
  '!',
  '\\',
  '~',
  '|',
  '{',
  '%',
  '}',
  '-',
  '+',
  '.',
  '=',
  ':',
  '"',
  "'",
);
const word = fc.string({ unit: tricky, minLength: 1, maxLength: 7 }).filter((w) => !w.includes(']:'));
const link = { type: 'link', attrs: { href: 'page:Abc123#setup' } };
const markSets = fc
  .subarray(['bold', 'italic', 'strike', 'code', 'link'] as const)
  .map((names) => names.map((name) => (name === 'link' ? link : { type: name })));
const inline = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: fc.record({ type: fc.constant('text'), text: word, marks: markSets }) },
      { weight: 2, arbitrary: fc.record({ type: fc.constant('text'), text: fc.constant(' ') }) },
      { weight: 1, arbitrary: fc.constant({ type: 'hardBreak' }) },
      {
        weight: 1,
        arbitrary: fc.record({ type: fc.constant('mathInline'), attrs: fc.record({ tex: fc.constantFrom('x^2', 'a_{i} \\le b') }) }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          type: fc.constant('htmlInline'),
          attrs: fc.record({
            html: fc.constantFrom('<mark>hi</mark>', '<i class="fa-check"></i>', '<a href="a b.md" class="button primary">Go</a>'),
          }),
        }),
      },
    ),
    { minLength: 1, maxLength: 6 },
  )
  .filter((nodes) => nodes.some((node) => node.type === 'text' && node.text.trim() !== ''));
const paragraph = inline.map((content) => ({ type: 'paragraph', content }));
const plain = fc
  .string({ unit: fc.constantFrom('a', 'b', ' ', '"', '<', '&', '%', '}', 'é', '-'), minLength: 1, maxLength: 10 })
  .filter((s) => s.trim() === s && !s.includes('  '));

const { block } = fc.letrec((tie) => ({
  blocks: fc.array(tie('block'), { minLength: 1, maxLength: 3 }),
  item: fc.tuple(paragraph, fc.array(tie('block'), { maxLength: 2 })).map(([first, rest]) => [first, ...(rest as unknown[])]),
  block: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    paragraph,
    fc.record({
      type: fc.constant('heading'),
      attrs: fc.record({ level: fc.integer({ min: 1, max: 4 }), id: fc.constantFrom(null, 'getting-started', 'é-1') }),
      content: inline,
    }),
    fc.record({
      type: fc.constant('htmlBlock'),
      attrs: fc.record({
        html: fc.constantFrom(
          '<div align="center"><img src="a (1).png" alt=""></div>',
          '<p align="center">Centered <strong>text</strong></p>',
          '<pre><code>&#x3C;b>x&#x3C;/b>\n</code></pre>',
          '<table><tr><td>1</td></tr></table>',
        ),
      }),
    }),
    fc.record({ type: fc.constant('math'), attrs: fc.record({ tex: fc.constantFrom('x', '\\frac{1}{2}\n+ y') }) }),
    fc.record({
      type: fc.constant('columns'),
      content: fc.array(
        fc.record({ type: fc.constant('column'), attrs: fc.record({ width: fc.constantFrom(null, 50, 33.3) }), content: tie('blocks') }),
        { minLength: 1, maxLength: 2 },
      ),
    }),
    fc.record({
      type: fc.constant('updates'),
      content: fc.array(
        fc.record({
          type: fc.constant('update'),
          attrs: fc.record({ date: fc.constantFrom('2024-01-01', '2025-12-31'), title: fc.constantFrom(null, 'A "new" thing') }),
          content: tie('blocks'),
        }),
        { minLength: 1, maxLength: 2 },
      ),
    }),
    fc.record({
      type: fc.constant('openapiOperation'),
      attrs: fc.oneof(
        fc.record({
          spec: fc.constant('petstore'),
          src: fc.constant(null),
          path: fc.constant('/pets/{id}'),
          method: fc.constantFrom('get', 'post'),
        }),
        fc.record({
          spec: fc.constant(null),
          src: fc.constant('../openapi (1).yaml'),
          path: fc.constant('/pets'),
          method: fc.constant('delete'),
        }),
      ),
    }),
    fc.record({
      type: fc.constant('reusableContent'),
      attrs: fc.oneof(
        fc.record({ reusableContentId: fc.constant('Rc123'), src: fc.constant(null) }),
        fc.record({ reusableContentId: fc.constant(null), src: fc.constant('../.gitbook/includes/a b.md') }),
      ),
    }),
    fc.record({
      type: fc.constant('codeBlock'),
      attrs: fc.record({
        language: fc.constantFrom(null, 'js', 'c++'),
        title: fc.constantFrom(null, 'a "b".js'),
        lineNumbers: fc.boolean(),
      }),
      content: fc
        .string({ unit: fc.constantFrom('a', '`', '\n', ' ', '~', '{', '%', '#'), minLength: 1, maxLength: 12 })
        .map((text) => [{ type: 'text', text }]),
    }),
    fc.record({ type: fc.constant('blockquote'), content: tie('blocks') }),
    fc.record({
      type: fc.constant('bulletList'),
      content: fc.array(
        tie('item').map((content) => ({ type: 'listItem', content })),
        { minLength: 1, maxLength: 3 },
      ),
    }),
    fc.record({
      type: fc.constant('orderedList'),
      attrs: fc.record({ start: fc.constantFrom(1, 3, 10) }),
      content: fc.array(
        tie('item').map((content) => ({ type: 'listItem', content })),
        { minLength: 1, maxLength: 3 },
      ),
    }),
    fc.record({
      type: fc.constant('taskList'),
      content: fc.array(
        fc.tuple(fc.boolean(), tie('item')).map(([checked, content]) => ({ type: 'taskItem', attrs: { checked }, content })),
        { minLength: 1, maxLength: 3 },
      ),
    }),
    fc.record({ type: fc.constant('hint'), attrs: fc.record({ style: fc.constantFrom('info', 'danger') }), content: tie('blocks') }),
    fc.record({
      type: fc.constant('tabs'),
      content: fc.array(fc.record({ type: fc.constant('tab'), attrs: fc.record({ title: plain }), content: tie('blocks') }), {
        minLength: 1,
        maxLength: 2,
      }),
    }),
    fc.record({
      type: fc.constant('stepper'),
      content: fc.array(fc.record({ type: fc.constant('step'), content: tie('blocks') }), { minLength: 1, maxLength: 2 }),
    }),
    fc.tuple(plain, tie('blocks')).map(([summary, content]) => ({
      type: 'details',
      content: [
        { type: 'detailsSummary', content: [{ type: 'text', text: summary }] },
        { type: 'detailsContent', content },
      ],
    })),
    fc.record({
      type: fc.constant('image'),
      attrs: fc.record({
        src: fc.constantFrom('a b.png', 'file:abc', 'x(1).png', '../.gitbook/assets/a&b.png'),
        alt: fc.constantFrom(null, 'A "q" <b>'),
        caption: fc.constantFrom(null, 'Cap & <i>'),
        width: fc.constantFrom(null, '200'),
        srcDark: fc.constantFrom(null, 'd.png'),
      }),
    }),
    fc.record({
      type: fc.constant('file'),
      attrs: fc.record({ fileId: fc.constant('abc'), caption: fc.constantFrom(null, 'The "file"') }),
    }),
    fc.record({
      type: fc.constant('embed'),
      attrs: fc.record({ url: fc.constant('https://y.t/v?a=1&b=2'), caption: fc.constantFrom(null, 'cap') }),
    }),
    fc.record({
      type: fc.constant('contentRef'),
      attrs: fc.record({ href: fc.constantFrom('a b.md', 'page:xyz'), title: fc.constantFrom(null, 'T [x]') }),
    }),
    fc.constant({ type: 'horizontalRule' }),
    fc
      .tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }))
      .chain(([width, height]) =>
        fc.tuple(
          fc.array(fc.constantFrom(null, 'left', 'center', 'right'), { minLength: width, maxLength: width }),
          fc.array(fc.array(inline, { minLength: width, maxLength: width }), { minLength: height, maxLength: height }),
        ),
      )
      .map(([aligns, rows]) => ({
        type: 'table',
        content: rows.map((cells, r) => ({
          type: 'tableRow',
          content: cells.map((content, c) => ({
            type: r === 0 ? 'tableHeader' : 'tableCell',
            attrs: { align: aligns[c] },
            content: [{ type: 'paragraph', content }],
          })),
        })),
      })),
  ),
}));

/** Bodies in the form a reader sees them: normalized, whitespace already outside emphasis. */
const body = fc
  .array(block, { minLength: 1, maxLength: 4 })
  .map((content) => normalizeBody({ type: 'doc', content }))
  .map((doc) => markdownToBody(bodyToMarkdown(doc)).doc);

const markdownPieces = fc.constantFrom(
  'a',
  'b c',
  ' ',
  '\n',
  '\n\n',
  '* ',
  '- ',
  '1. ',
  '> ',
  '# ',
  '```',
  '~~~',
  '`',
  '**',
  '_',
  '~~',
  '[',
  ']',
  '(',
  ')',
  '<',
  '>',
  '&amp;',
  '&',
  '|',
  '---',
  '***',
  '\\',
  '!',
  '{% hint style="info" %}\n',
  '{% endhint %}\n',
  '{% tabs %}\n',
  '{% tab title="x" %}\n',
  '{% endtab %}\n',
  '{% endtabs %}\n',
  '<details>\n',
  '<summary>s</summary>\n',
  '</details>\n',
  '<figure><img src="a.png" alt="x"><figcaption><p>c</p></figcaption></figure>\n',
  '<br>',
  '<script>',
  '{% embed url="https://x" %}\n',
  '{% code title="t" %}\n',
  '{% endcode %}\n',
  '    ',
  '\t',
  '[ ] ',
  '[x] ',
  '<https://x.y>',
  '![a](b.png)',
  '[l](page:abc)',
  '{{ space.vars.v }}',
  '| a | b |\n| - | - |\n',
  '<div>',
  '&#32;',
  'é',
  '$$',
  '$$\n',
  '$',
  '{% columns %}\n',
  '{% column width="50%" %}\n',
  '{% endcolumn %}\n',
  '{% endcolumns %}\n',
  '{% updates %}\n',
  '{% update date="2024-01-01" %}\n',
  '{% endupdate %}\n',
  '{% endupdates %}\n',
  '{% include "a.md" %}\n',
  '{% openapi src="a.yaml" path="/x" method="get" %}\n',
  '{% endopenapi %}\n',
  '## T <a href="#t" id="t"></a>\n',
  '<mark>',
  '</mark>',
  '<a class="button primary" href="x">',
  '</a>',
  '<div align="center">\n',
  '</div>\n',
);

describe('markdown round trips (generated)', () => {
  it('body → markdown → body is the identity', () => {
    fc.assert(
      fc.property(body, (doc: NodeJSON) => {
        expect(JSON.stringify(markdownToBody(bodyToMarkdown(doc)).doc)).toBe(JSON.stringify(doc));
      }),
      { numRuns: 100, seed: 20240611 },
    );
  });

  it('body → Y.XmlFragment → body is the identity', () => {
    fc.assert(
      fc.property(body, (doc: NodeJSON) => {
        const ydoc = new Y.Doc();
        const fragment = ydoc.getXmlFragment('body');
        writeBody(fragment, doc);
        expect(JSON.stringify(readBody(fragment))).toBe(JSON.stringify(doc));
      }),
      { numRuns: 25, seed: 7 },
    );
  });

  it('any markdown settles after one pass: writing what was read gives the same markdown', () => {
    fc.assert(
      fc.property(
        fc.array(markdownPieces, { maxLength: 30 }).map((pieces) => pieces.join('')),
        (source) => {
          const once = bodyToMarkdown(markdownToBody(source).doc);
          expect(bodyToMarkdown(markdownToBody(once).doc)).toBe(once);
        },
      ),
      { numRuns: 300, seed: 42 },
    );
  });
});
