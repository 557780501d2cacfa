import { unescapeText } from '@quire/shared/content/markdown/escape';

/** One entry of a table of contents: a page (from a markdown file), a group, or a link to elsewhere. */
export interface TocEntry {
  kind: 'page' | 'group' | 'link';
  title: string;
  /** Markdown file of a page, relative to the folder root, as written (not yet resolved). */
  path?: string;
  /** Target of a link entry. */
  href?: string;
  /** A group's slug, from the anchor of its heading (`## Title <a href="#slug" id="slug"></a>`). */
  slug?: string;
  /** 1-based line of the entry in SUMMARY.md. */
  line?: number;
  children: TocEntry[];
}

const ITEM = /^(\s*)[*+-]\s+(.*)$/;
// a destination in angle brackets may hold spaces; a bare one balanced parentheses (`icon (1).md`)
const LINK = /^\[((?:\\.|[^\]\\])*)\]\(\s*(?:<((?:\\.|[^>\\\n])*)>|((?:[^()\s\\]|\\.|\([^()\s]*\))*))(?:\s+"[^"]*")?\s*\)\s*$/;
const HEADING_ANCHOR = /\s*<a\b[^>]*?\b(?:id|name)\s*=\s*["']([^"']+)["'][^>]*>\s*<\/a>\s*$/i;
const SEPARATOR = /^\s*(?:\*\s*){3,}$|^\s*(?:-\s*){3,}$|^\s*(?:_\s*){3,}$/;
const EXTERNAL = /^[A-Za-z][A-Za-z0-9+.-]*:|^\/\//;

/**
 * Reads a GitBook `SUMMARY.md`: list items are pages (nested items are child pages),
 * `## Title` headings open groups that hold the items below them, a `***` line closes the
 * current group, and an item linking to a URL is a link page. The `# Table of contents`
 * title line is not an entry.
 */
export function parseSummary(markdown: string): TocEntry[] {
  const root: TocEntry[] = [];
  let container = root;
  // Open items by indentation, so a deeper item becomes the child of the last shallower one.
  let stack: { indent: number; entry: TocEntry }[] = [];
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  for (const [index, raw] of lines.entries()) {
    const line = raw.replace(/\t/g, '    ');
    if (!line.trim()) continue;
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      if ((heading[1] as string).length === 1) continue;
      const text = heading[2] as string;
      const anchor = HEADING_ANCHOR.exec(text);
      const group: TocEntry = {
        kind: 'group',
        title: unescape(anchor ? text.slice(0, anchor.index) : text),
        ...(anchor ? { slug: anchor[1] as string } : {}),
        line: index + 1,
        children: [],
      };
      root.push(group);
      container = group.children;
      stack = [];
      continue;
    }
    if (SEPARATOR.test(line)) {
      container = root;
      stack = [];
      continue;
    }
    const item = ITEM.exec(line);
    if (!item) continue;
    const indent = (item[1] as string).length;
    const text = (item[2] as string).trim();
    const link = LINK.exec(text);
    const title = unescape(link ? (link[1] as string) : text);
    const target = link ? unescapeDestination(link[2] ?? link[3] ?? '') : '';
    const at = { line: index + 1, children: [] };
    const entry: TocEntry = !target
      ? { kind: 'group', title, ...at }
      : EXTERNAL.test(target)
        ? { kind: 'link', title, href: target, ...at }
        : { kind: 'page', title, path: target, ...at };
    while (stack.length && (stack[stack.length - 1] as { indent: number }).indent >= indent) stack.pop();
    const parent = stack[stack.length - 1]?.entry;
    (parent ? parent.children : container).push(entry);
    stack.push({ indent, entry });
  }
  return root;
}

function unescapeDestination(s: string): string {
  return s.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

function unescape(s: string): string {
  return unescapeText(s).trim();
}
