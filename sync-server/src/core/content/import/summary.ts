/** One entry of a table of contents: a page (from a markdown file), a group, or a link to elsewhere. */
export interface TocEntry {
  kind: 'page' | 'group' | 'link';
  title: string;
  /** Markdown file of a page, relative to the folder root, as written (not yet resolved). */
  path?: string;
  /** Target of a link entry. */
  href?: string;
  children: TocEntry[];
}

const ITEM = /^(\s*)[*+-]\s+(.*)$/;
const LINK = /^\[((?:\\.|[^\]\\])*)\]\(\s*<?([^)>\s]*)>?(?:\s+"[^"]*")?\s*\)\s*$/;
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
  for (const raw of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.replace(/\t/g, '    ');
    if (!line.trim()) continue;
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      if ((heading[1] as string).length === 1) continue;
      const group: TocEntry = { kind: 'group', title: unescape(heading[2] as string), children: [] };
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
    const target = link?.[2] ?? '';
    const entry: TocEntry = !target
      ? { kind: 'group', title, children: [] }
      : EXTERNAL.test(target)
        ? { kind: 'link', title, href: target, children: [] }
        : { kind: 'page', title, path: target, children: [] };
    while (stack.length && (stack[stack.length - 1] as { indent: number }).indent >= indent) stack.pop();
    const parent = stack[stack.length - 1]?.entry;
    (parent ? parent.children : container).push(entry);
    stack.push({ indent, entry });
  }
  return root;
}

function unescape(s: string): string {
  return s.replace(/\\([\\`*_{}[\]()#+\-.!|<>])/g, '$1').trim();
}
