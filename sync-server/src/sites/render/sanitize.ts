import type { Element, ElementContent, Root, RootContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import { unified } from 'unified';
import { rehypeIcons } from './icons';

/**
 * The allow-list every page body goes through (rehype-sanitize, GitHub's schema widened
 * with what documentation repositories write by hand), and the parsing of raw HTML kept
 * by imports (`htmlBlock`, `htmlInline`). Elements outside the list are replaced by their
 * content; scripts, styles, event handlers, `javascript:` URLs and foreign classes never
 * reach a reader.
 */

/** The default allow-list, minus its per-element class restrictions (classes are checked here instead). */
const baseAttributes = Object.fromEntries(
  Object.entries(defaultSchema.attributes ?? {}).map(([tag, attrs]) => [
    tag,
    attrs.filter((a) => (Array.isArray(a) ? a[0] : a) !== 'className' && (Array.isArray(a) ? a[0] : a) !== 'align'),
  ]),
);

const ALIGN: [string, ...string[]] = ['align', 'left', 'center', 'right', 'justify'];
const ALIGNED = ['div', 'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'td', 'th', 'tr', 'figure', 'img', 'picture', 'table'];

export const SCHEMA: SanitizeSchema = {
  ...defaultSchema,
  // Heading ids must match the anchors `page:<id>#anchor` links and the outline use.
  clobberPrefix: '',
  clobber: [],
  // Removed with their content: what they hold is code or styling, never text for readers.
  strip: ['script', 'style', 'template', 'iframe', 'object', 'embed', 'svg', 'math'],
  tagNames: [
    ...(defaultSchema.tagNames ?? []),
    'figure',
    'figcaption',
    'aside',
    'details',
    'summary',
    'picture',
    'source',
    'mark',
    'section',
    'nav',
    'button',
    'time',
    'caption',
    'colgroup',
    'col',
    'u',
    'small',
  ],
  attributes: {
    ...baseAttributes,
    ...Object.fromEntries(ALIGNED.map((t) => [t, [...(baseAttributes[t] ?? []), ALIGN]])),
    '*': [
      ...(baseAttributes['*'] ?? []),
      'className',
      'id',
      'dataLanguage',
      'dataStyle',
      'dataSlot',
      'dataPlayer',
      'dataMethod',
      'dataPath',
      'dataServer',
      'dataBody',
      'dataSecurity',
      'dataProxy',
      'dataType',
      'dataIn',
      'dataName',
      'role',
      'ariaLabel',
      'ariaHidden',
      'title',
    ],
    a: [...(baseAttributes.a ?? []), 'target', 'rel', 'download'],
    // `data-size="line"`: an interface icon GitBook sets at the height of the text around it.
    img: [...(baseAttributes.img ?? []), 'loading', 'decoding', 'width', 'height', 'srcSet', 'sizes', ALIGN, ['dataSize', 'line']],
    source: ['srcSet', 'media', 'type', 'sizes'],
    ol: ['start'],
    td: [...(baseAttributes.td ?? []), ALIGN],
    th: [...(baseAttributes.th ?? []), ALIGN],
    // GitBook's full-width blocks (`<div data-full-width="true"><figure>…`, a wide table): drawn across the outline's column.
    div: [...(baseAttributes.div ?? []), ALIGN, ['dataFullWidth', 'true']],
    figure: [ALIGN, ['dataFullWidth', 'true']],
    table: [ALIGN, ['dataView', 'cards'], ['dataFullWidth', 'true']],
    input: [['type', 'checkbox'], ['disabled', true], 'checked'],
    button: [['type', 'button', 'submit']],
    details: ['open'],
    time: ['dateTime'],
    col: ['span', 'width'],
  },
  protocols: {
    href: ['http', 'https', 'mailto', 'tel'],
    src: ['http', 'https'],
    srcSet: ['http', 'https'],
    cite: ['http', 'https'],
  },
};

// Icons are drawn after sanitizing: their SVG is the renderer's own (icons.ts).
const processor = unified().use(rehypeSanitize, SCHEMA).use(rehypeIcons).use(rehypeStringify);

/** The sanitized HTML of a tree. */
export function sanitizeToHtml(tree: Root): string {
  const clean = processor.runSync(tree) as Root;
  return processor.stringify(clean);
}

/**
 * Classes hand-written HTML may keep: icon fonts (`fa-…`), buttons (`button primary`)
 * and alignment helpers. Any other class could impersonate the renderer's own.
 */
const KEPT_CLASS = /^(fa|fas|far|fab|fal|fad|fa-[a-z0-9-]+|button|primary|secondary|text-(left|center|right))$/;

/** Raw HTML from a body (an import kept it as source), as a tree for the sanitizer. */
export function htmlFragment(html: string): ElementContent[] {
  const root = fromHtml(html, { fragment: true });
  return root.children.flatMap((c) => adopt(c));
}

function adopt(node: RootContent): ElementContent[] {
  if (node.type === 'text') return [node];
  if (node.type !== 'element') return [];
  const props = { ...node.properties };
  const classes = Array.isArray(props.className) ? props.className.map(String) : [];
  const kept = classes.filter((c) => KEPT_CLASS.test(c));
  // GitBook's action buttons (`data-action="ask"` opens its assistant): this site has none of
  // those actions, and a button that does nothing is worse than no button.
  if ((node.tagName === 'button' || node.tagName === 'a') && typeof props.dataAction === 'string' && props.dataAction) return [];
  if (node.tagName === 'table' && props.dataView === 'cards') kept.push('cards');
  if (node.tagName === 'a' && kept.includes('button')) kept.push('html-button');
  props.className = kept.length ? kept : undefined;
  if (node.tagName === 'i' && kept.some((c) => c.startsWith('fa'))) {
    // Drawn as SVG after sanitizing (icons.ts); its text is the code GitBook falls back to, never shown.
    props.ariaHidden = 'true';
    props.className = [...kept, 'icon'];
  }
  const children = (node.tagName === 'template' ? [] : node.children).flatMap((c) => adopt(c as RootContent));
  // A GitBook button's icon (`<a class="button" data-icon="rocket">`), drawn like any other (icons.ts).
  const icon = typeof props.dataIcon === 'string' && /^[a-z0-9-]{1,48}$/.test(props.dataIcon) ? props.dataIcon : undefined;
  if (icon && (node.tagName === 'button' || kept.includes('button')))
    children.unshift(
      { type: 'element', tagName: 'i', properties: { className: [`fa-${icon}`, 'icon'], ariaHidden: 'true' }, children: [] },
      { type: 'text', value: ' ' },
    );
  return [{ ...(node as Element), properties: props, children }];
}
