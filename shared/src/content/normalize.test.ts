import { describe, expect, it } from 'vitest';
import { normalizeBody } from './index';

describe('normalizing foreign bodies', () => {
  it('keeps a valid body unchanged', () => {
    const body = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'ok', marks: [{ type: 'bold' }] }] }] };
    expect(normalizeBody(body)).toEqual(body);
  });

  it('fills required content, wraps stray inline content and unwraps unknown nodes', () => {
    expect(
      normalizeBody({
        type: 'doc',
        content: [
          { type: 'text', text: 'loose text' },
          { type: 'bulletList', content: [{ type: 'text', text: 'item without paragraph' }] },
          { type: 'listItem', content: [{ type: 'codeBlock', content: [{ type: 'text', text: 'x' }] }] },
          { type: 'panel', attrs: { kind: 'note' }, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'inside panel' }] }] },
          { type: 'hint', attrs: { style: 'purple' } },
          { type: 'tabs' },
          { type: 'heading', attrs: { level: 9, id: 'x' }, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'h' }] }] },
          {
            type: 'codeBlock',
            attrs: { language: 'js `evil`' },
            content: [
              { type: 'paragraph', content: [{ type: 'text', text: 'a', marks: [{ type: 'bold' }] }] },
              { type: 'paragraph', content: [{ type: 'text', text: 'b' }] },
            ],
          },
          { type: 'image', attrs: { src: 'x.png', alt: '', width: 300 } },
        ],
      }),
    ).toEqual({
      type: 'doc',
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: 'loose text' }] },
        {
          type: 'bulletList',
          content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'item without paragraph' }] }] }],
        },
        {
          type: 'bulletList',
          content: [
            {
              type: 'listItem',
              content: [
                { type: 'paragraph' },
                {
                  type: 'codeBlock',
                  attrs: { language: null, title: null, lineNumbers: false, wrap: false },
                  content: [{ type: 'text', text: 'x' }],
                },
              ],
            },
          ],
        },
        { type: 'paragraph', content: [{ type: 'text', text: 'inside panel' }] },
        { type: 'hint', attrs: { style: 'info' }, content: [{ type: 'paragraph' }] },
        { type: 'tabs', content: [{ type: 'tab', attrs: { title: '' }, content: [{ type: 'paragraph' }] }] },
        { type: 'heading', attrs: { level: 4, id: 'x' }, content: [{ type: 'text', text: 'h' }] },
        {
          type: 'codeBlock',
          attrs: { language: null, title: null, lineNumbers: false, wrap: false },
          content: [{ type: 'text', text: 'a\nb' }],
        },
        { type: 'image', attrs: { src: 'x.png', alt: null, caption: null, width: '300', srcDark: null } },
      ],
    });
  });

  it('gives an empty document for anything that is not a body', () => {
    for (const junk of [null, 42, 'text', [], { type: 'doc', content: 'nope' }]) {
      expect(normalizeBody(junk)).toEqual({ type: 'doc', content: [{ type: 'paragraph' }] });
    }
  });

  it('survives absurdly deep nesting', () => {
    let node: Record<string, unknown> = { type: 'paragraph', content: [{ type: 'text', text: 'bottom' }] };
    for (let i = 0; i < 5000; i++) node = { type: 'blockquote', content: [node] };
    expect(() => normalizeBody({ type: 'doc', content: [node] })).not.toThrow();
  });
});
