import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { isRecord, type JsonValue } from '../json';

/**
 * YAML front matter of a GitBook page. `description`, `icon`, `cover`, `layout` and
 * `hidden` set the page's fields on import; any other key is returned as written so
 * nothing is silently lost.
 */
export interface FrontMatter {
  description?: string;
  icon?: string;
  /** The page's emoji; an `icon:` whose value is an emoji reads as one too. */
  emoji?: string;
  /** The cover image: a path as written in the repository, a URL, or `file:<fileId>`; null for none. */
  cover?: string | null;
  layout?: { [key: string]: JsonValue };
  hidden?: boolean;
  [key: string]: JsonValue | undefined;
}

const EMOJI = /^\p{Extended_Pictographic}/u;
const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/;

/**
 * Splits leading front matter from markdown. Text that is not a YAML mapping stays in
 * the markdown, where it reads as a rule and a paragraph rather than vanishing.
 */
export function splitFrontMatter(markdown: string): { frontMatter: FrontMatter; body: string } {
  const match = FRONT_MATTER.exec(markdown);
  if (!match) return { frontMatter: {}, body: markdown };
  let data: unknown;
  try {
    data = parseYaml(match[1] ?? '', { schema: 'core' });
  } catch {
    return { frontMatter: {}, body: markdown };
  }
  if (data === null || data === undefined) data = {};
  if (!isRecord(data)) return { frontMatter: {}, body: markdown };
  return { frontMatter: toFrontMatter(data), body: markdown.slice(match[0].length) };
}

function toFrontMatter(data: Record<string, unknown>): FrontMatter {
  const out: FrontMatter = {};
  for (const [key, value] of Object.entries(data)) {
    const json = toJson(value);
    if (json === undefined) continue;
    if (key === 'description' || key === 'icon' || key === 'emoji') {
      if (json === null) continue;
      const text = typeof json === 'string' ? json : String(json);
      if (key === 'icon' && EMOJI.test(text)) out.emoji = text;
      else out[key] = text;
    } else if (key === 'cover') {
      out.cover = json === null || json === '' ? null : typeof json === 'string' ? json : String(json);
    } else if (key === 'hidden') {
      out.hidden = json === true || json === 'true';
    } else if (key === 'layout') {
      if (isRecord(json)) out.layout = json as { [key: string]: JsonValue };
    } else {
      out[key] = json;
    }
  }
  return out;
}

function toJson(value: unknown): JsonValue | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((item) => toJson(item) ?? null);
  if (isRecord(value)) {
    const out: { [key: string]: JsonValue } = {};
    for (const [key, item] of Object.entries(value)) {
      const json = toJson(item);
      if (json !== undefined) out[key] = json;
    }
    return out;
  }
  return undefined;
}

/** The `---` block for a page's front matter, or '' when there is nothing to write. */
export function formatFrontMatter(frontMatter: FrontMatter | undefined): string {
  if (!frontMatter) return '';
  const entries = Object.entries(frontMatter).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return '';
  // one line per value: folded lines would turn every edit of a description into a multi-line diff
  return `---\n${stringifyYaml(Object.fromEntries(entries), { lineWidth: 0 })}---\n`;
}
