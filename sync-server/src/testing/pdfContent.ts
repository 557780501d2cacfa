import { crc32, deflateSync } from 'node:zlib';
import type { NodeJSON } from '@quire/shared/content/json';
import { markdownToBody } from '@quire/shared/content/index';

/** A solid-colour PNG of the given size, made here so tests need no image files. */
export function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A small SVG image (a blue card with a white dot). */
export const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60" viewBox="0 0 120 60"><rect width="120" height="60" fill="#0b57d0"/><circle cx="30" cy="30" r="20" fill="#fff"/></svg>',
);

/** Markdown with every construct the importer and the editor produce, in several scripts. */
export const SHOWCASE_MARKDOWN = `Acme is a **fast** and *reliable* tool with \`inline code\`, ~~old~~ text and a [website link](https://example.com/docs).

## Scripts

中文内容：这是一个测试。日本語のテキスト、ひらがなとカタカナ。 Emoji: 😀 🚀

مرحبا بالعالم، هذا نص عربي (مع أقواس) ورقم 2024.

{% hint style="warning" %}
Careful: this is a **warning** hint.
{% endhint %}

\`\`\`js
function hello() {
  return "world";
}
\`\`\`

| Name | Value |
|---|---|
| region | eu |
| retries | 3 |

- one
- two
  1. nested

> a quote

{% tabs %}
{% tab title="macOS" %}
Use Homebrew.
{% endtab %}
{% tab title="Linux" %}
Use apt.
{% endtab %}
{% endtabs %}

<details>
<summary>More details</summary>

Hidden text shown in print.

</details>

{% embed url="https://www.youtube.com/watch?v=abc" %}
Demo video
{% endembed %}
`;

/** Nodes of the content contract the markdown above may not yet produce, written directly. */
export function contractBlocks(): NodeJSON[] {
  return [
    { type: 'heading', attrs: { level: 2, id: 'contract-blocks' }, content: [{ type: 'text', text: 'Contract blocks' }] },
    {
      type: 'htmlBlock',
      attrs: {
        html: '<table><tr><th>Plan</th><th>Price</th></tr><tr><td>Team</td><td><b>10 €</b></td></tr></table><script>alert(1)</script>',
      },
    },
    {
      type: 'columns',
      content: [
        { type: 'column', attrs: { width: 50 }, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Left column text' }] }] },
        { type: 'column', attrs: { width: 50 }, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Right column text' }] }] },
      ],
    },
    {
      type: 'updates',
      content: [
        {
          type: 'update',
          attrs: { date: '2024-01-01', title: 'First release' },
          content: [{ type: 'paragraph', content: [{ type: 'text', text: 'We shipped.' }] }],
        },
      ],
    },
    { type: 'math', attrs: { tex: 'E = mc^2' } },
    {
      type: 'paragraph',
      content: [
        { type: 'text', text: 'Inline ' },
        { type: 'mathInline', attrs: { tex: 'a^2+b^2' } },
        { type: 'text', text: ' and ' },
        { type: 'htmlInline', attrs: { html: '<mark>marked</mark>' } },
      ],
    },
    { type: 'codeBlock', attrs: { language: 'mermaid' }, content: [{ type: 'text', text: 'graph TD; A-->B' }] },
    { type: 'openapiOperation', attrs: { spec: 'petstore', src: null, path: '/pets', method: 'get' } },
    { type: 'reusableContent', attrs: { reusableContentId: 'rc1', src: null } },
  ];
}

export function showcaseBody(extra: NodeJSON[] = []): NodeJSON {
  const body = markdownToBody(SHOWCASE_MARKDOWN).doc;
  return { ...body, content: [...(body.content ?? []), ...contractBlocks(), ...extra] };
}
