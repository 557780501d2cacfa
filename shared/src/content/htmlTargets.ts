import { decodeHTMLStrict } from 'entities';
import { escapeAttribute } from './markdown/escape';
import type { TargetKind } from './targets';

/** One target written in an HTML attribute of an `htmlBlock` / `htmlInline` node. */
export interface HtmlTarget {
  kind: TargetKind;
  /** Decoded, as a browser would read it. */
  target: string;
}

/** Attributes that name a resource, and what kind of reference each is. */
const TARGET_ATTRIBUTES: Record<string, TargetKind> = { src: 'image', srcset: 'image', href: 'link', poster: 'image', data: 'file' };
const TAG = /<([A-Za-z][A-Za-z0-9-]*)\b((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
const ATTRIBUTE = /([A-Za-z][\w:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/g;
/** A width or density descriptor after a `srcset` candidate (`… 2x`, `… 640w`). */
const DESCRIPTOR = /\s+\d+(?:\.\d+)?[wx]$/;

interface Found {
  kind: TargetKind;
  target: string;
  /** Where the attribute's value sits in the HTML, quotes excluded. */
  start: number;
  end: number;
  srcset: boolean;
}

function scan(html: string): Found[] {
  const found: Found[] = [];
  for (const tag of html.matchAll(TAG)) {
    const tagStart = (tag.index ?? 0) + 1 + (tag[1] as string).length;
    const tagName = (tag[1] as string).toLowerCase();
    for (const attr of (tag[2] as string).matchAll(ATTRIBUTE)) {
      const name = (attr[1] as string).toLowerCase();
      let kind = TARGET_ATTRIBUTES[name];
      if (!kind || (name === 'data' && tagName !== 'object')) continue;
      if (name === 'href' && tagName !== 'a') kind = 'file';
      const raw = attr[2] ?? attr[3] ?? attr[4] ?? '';
      const quoted = attr[2] !== undefined || attr[3] !== undefined ? 1 : 0;
      const valueStart = tagStart + (attr.index ?? 0) + (attr[0] as string).length - raw.length - quoted;
      const target = decodeHTMLStrict(raw).trim();
      if (target === '') continue;
      found.push({ kind, target, start: valueStart, end: valueStart + raw.length, srcset: name === 'srcset' });
    }
  }
  return found;
}

/**
 * `srcset` candidates, each URL with its descriptor (`' 2x'`, `' 640w'`, or ''): one URL
 * unless it lists several (`a.png 1x, b.png 2x`); a file name may hold spaces.
 */
export function srcsetCandidates(value: string): { url: string; descriptor: string }[] {
  const candidates = /,\s/.test(value) ? value.split(/,\s+/) : [value];
  return candidates
    .map((candidate) => {
      const trimmed = candidate.trim();
      const descriptor = DESCRIPTOR.exec(trimmed)?.[0] ?? '';
      return { url: trimmed.slice(0, trimmed.length - descriptor.length), descriptor };
    })
    .filter((c) => c.url !== '');
}

function srcsetUrls(value: string): string[] {
  return srcsetCandidates(value).map((c) => c.url);
}

/** Every resource an HTML fragment names (`<img src>`, `<source srcset>`, `<a href>`…), in order. */
export function htmlTargets(html: string): HtmlTarget[] {
  return scan(html).flatMap((found) =>
    found.srcset ? srcsetUrls(found.target).map((target) => ({ kind: found.kind, target })) : [{ kind: found.kind, target: found.target }],
  );
}

/**
 * The HTML with each target passed through `rewrite`; attributes whose target does not
 * change are left exactly as written, so an unchanged fragment stays byte-identical.
 */
export function rewriteHtmlTargets(html: string, rewrite: (target: string, kind: TargetKind) => string): string {
  let out = '';
  let last = 0;
  for (const found of scan(html)) {
    let next: string;
    if (found.srcset) {
      next = srcsetCandidates(found.target)
        .map(({ url, descriptor }) => rewrite(url, found.kind) + descriptor)
        .join(', ');
    } else {
      next = rewrite(found.target, found.kind);
    }
    if (next === found.target) continue;
    out += html.slice(last, found.start) + escapeAttribute(next).replace(/'/g, '&#39;');
    last = found.end;
  }
  return last === 0 ? html : out + html.slice(last);
}
