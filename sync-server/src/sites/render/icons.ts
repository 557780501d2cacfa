import { createRequire } from 'node:module';
import { iconOfClasses, splitIconCodes } from '@quire/shared/content/iconCodes';
import type { Element, ElementContent, Root, RootContent } from 'hast';

/**
 * GitBook's icons (Font Awesome's names) drawn as inline SVG from Font Awesome's free sets:
 * a page carries the few paths it shows and loads no font or stylesheet. A name no set
 * knows is left out: the code it was written as is never shown as words.
 */

type Style = 'solid' | 'regular' | 'brands';
type Definition = { icon: [number, number, unknown[], string, string | string[]] };

const PACKAGES: Record<Style, { pkg: string; key: string }> = {
  solid: { pkg: '@fortawesome/free-solid-svg-icons', key: 'fas' },
  regular: { pkg: '@fortawesome/free-regular-svg-icons', key: 'far' },
  brands: { pkg: '@fortawesome/free-brands-svg-icons', key: 'fab' },
};

const sets = new Map<Style, Map<string, Definition>>();
const require = createRequire(import.meta.url);

/** A set by icon name and alias, loaded on the first page that needs it. */
function set(style: Style): Map<string, Definition> {
  let byName = sets.get(style);
  if (byName) return byName;
  byName = new Map();
  const { pkg, key } = PACKAGES[style];
  const icons = (require(pkg) as Record<string, Record<string, Definition & { iconName: string }>>)[key] ?? {};
  for (const def of Object.values(icons)) {
    byName.set(def.iconName, def);
    for (const alias of def.icon[2]) if (typeof alias === 'string') byName.set(alias, def);
  }
  sets.set(style, byName);
  return byName;
}

// GitBook's default style is `regular`; the free regular set is small, the solid one full.
const ORDER: Style[] = ['regular', 'solid', 'brands'];

/** The SVG of an icon, or undefined when no free set has it. */
export function iconSvg(name: string, style?: Style): Element | undefined {
  const styles = style ? [style, ...ORDER.filter((s) => s !== style)] : ORDER;
  for (const s of styles) {
    const def = set(s).get(name);
    if (!def) continue;
    const [width, height, , , path] = def.icon;
    const paths = (Array.isArray(path) ? path : [path]).map((d): ElementContent => ({
      type: 'element',
      tagName: 'path',
      properties: { d },
      children: [],
    }));
    return {
      type: 'element',
      tagName: 'svg',
      properties: {
        className: ['fa-icon'],
        viewBox: `0 0 ${width} ${height}`,
        width: `${Math.round((width / height) * 1000) / 1000}em`,
        height: '1em',
        fill: 'currentColor',
        ariaHidden: 'true',
        focusable: 'false',
      },
      children: paths,
    };
  }
  return undefined;
}

// Text in these is shown as written.
const VERBATIM = new Set(['code', 'pre', 'kbd', 'samp', 'textarea', 'script', 'style', 'svg', 'math']);

/**
 * Replaces icons in a sanitized tree: `<i class="fa-… icon">` (what sanitize.ts keeps of
 * hand-written icons) and codes written as words (`:globe:`) become SVG or nothing.
 * Runs after the sanitizer, so the SVG is this renderer's own, never the content's.
 */
export function drawIcons(tree: Root | Element): void {
  const out: RootContent[] = [];
  for (const node of tree.children as RootContent[]) {
    if (node.type === 'element') {
      const classes = Array.isArray(node.properties.className) ? node.properties.className.map(String) : [];
      if (node.tagName === 'i' && classes.includes('icon')) {
        const icon = iconOfClasses(classes);
        const svg = icon ? iconSvg(icon.name, icon.style) : undefined;
        if (svg) out.push(svg);
        continue;
      }
      if (!VERBATIM.has(node.tagName)) drawIcons(node);
      out.push(node);
    } else if (node.type === 'text') {
      for (const part of splitIconCodes(node.value)) {
        if (part.text !== undefined) out.push({ type: 'text', value: part.text });
        else {
          const svg = iconSvg(part.icon as string);
          if (svg) out.push(svg);
        }
      }
    } else out.push(node);
  }
  tree.children = out as Root['children'];
}

/** The unified plugin form of `drawIcons`. */
export function rehypeIcons() {
  return (tree: Root) => drawIcons(tree);
}
