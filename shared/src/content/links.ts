import * as Y from 'yjs';
import { readBody } from './body';
import { htmlTargets, rewriteHtmlTargets } from './htmlTargets';
import { cloneJson, type NodeJSON } from './json';
import { bodyFragment, pagesMap } from './layout';
import { parseTarget, type TargetKind } from './targets';

/** One reference written in a body. */
export interface BodyLink {
  kind: TargetKind;
  /** As written: `page:<id>[#anchor]`, `file:<id>`, `#anchor`, a URL or a relative path. */
  target: string;
  /** Link text, image alt or caption, reference title; null when there is none. */
  text: string | null;
}

/**
 * Every link, image, file, content reference and embed target in a body, HTML
 * attributes included (`<img src>`, `<source srcset>`, `<a href>`), in document order (repeats included): what link checking, backlinks and imports work from.
 */
export function extractLinks(body: NodeJSON): BodyLink[] {
  const links: BodyLink[] = [];
  const walk = (node: NodeJSON): void => {
    const attrs = node.attrs ?? {};
    const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
    switch (node.type) {
      case 'image':
        if (str(attrs.src)) links.push({ kind: 'image', target: attrs.src as string, text: str(attrs.alt) ?? str(attrs.caption) });
        if (str(attrs.srcDark)) links.push({ kind: 'image', target: attrs.srcDark as string, text: str(attrs.alt) ?? str(attrs.caption) });
        return;
      case 'inlineImage':
        if (str(attrs.src)) links.push({ kind: 'image', target: attrs.src as string, text: str(attrs.alt) });
        return;
      case 'file': {
        const target = str(attrs.fileId) ? `file:${attrs.fileId}` : str(attrs.src);
        if (target) links.push({ kind: 'file', target, text: str(attrs.caption) });
        return;
      }
      case 'contentRef':
        if (str(attrs.href)) links.push({ kind: 'contentRef', target: attrs.href as string, text: str(attrs.title) });
        return;
      case 'embed':
        if (str(attrs.url)) links.push({ kind: 'embed', target: attrs.url as string, text: str(attrs.caption) });
        return;
      case 'reusableContent':
        // an include by id is not a link; one still naming a file is, until an import resolves it
        if (!str(attrs.reusableContentId) && str(attrs.src))
          links.push({ kind: 'reusableContent', target: attrs.src as string, text: null });
        return;
      case 'openapiOperation':
        if (str(attrs.src)) links.push({ kind: 'file', target: attrs.src as string, text: null });
        return;
      case 'htmlBlock':
      case 'htmlInline':
        for (const found of htmlTargets(String(attrs.html ?? ''))) links.push({ kind: found.kind, target: found.target, text: null });
        return;
      case 'detailsSummary':
        // its text holds no links; the images of the summary as written are its targets
        for (const found of htmlTargets(String(attrs.html ?? ''))) links.push({ kind: found.kind, target: found.target, text: null });
        return;
    }
    let open: BodyLink | null = null;
    for (const child of node.content ?? []) {
      const href = child.marks?.find((mark) => mark.type === 'link')?.attrs?.href;
      if (typeof href === 'string' && href !== '') {
        if (open && open.target === href) {
          open.text = (open.text ?? '') + (child.text ?? '');
        } else {
          open = { kind: 'link', target: href, text: child.text ?? '' };
          links.push(open);
        }
      } else {
        open = null;
      }
      if (child.type !== 'text') walk(child);
    }
  };
  walk(body);
  return links.map((link) => (link.kind === 'link' && link.text === '' ? { ...link, text: null } : link));
}

/**
 * A copy of the body with every target passed through `rewrite`: an import turns
 * relative `.md` paths into `page:<id>` and asset paths into `file:<id>` this way.
 */
export function rewriteTargets(body: NodeJSON, rewrite: (target: string, kind: TargetKind) => string): NodeJSON {
  const copy = cloneJson(body);
  const walk = (node: NodeJSON): void => {
    const attrs = node.attrs;
    if (attrs) {
      const swap = (key: string, kind: TargetKind): void => {
        if (typeof attrs[key] === 'string' && attrs[key] !== '') attrs[key] = rewrite(attrs[key] as string, kind);
      };
      switch (node.type) {
        case 'image':
          swap('src', 'image');
          swap('srcDark', 'image');
          break;
        case 'inlineImage':
          swap('src', 'image');
          break;
        case 'contentRef':
          swap('href', 'contentRef');
          break;
        case 'embed':
          swap('url', 'embed');
          break;
        case 'openapiOperation':
          swap('src', 'file');
          break;
        case 'htmlBlock':
        case 'htmlInline':
        case 'detailsSummary':
          if (typeof attrs.html === 'string') attrs.html = rewriteHtmlTargets(attrs.html, rewrite);
          break;
        case 'reusableContent': {
          const current = attrs.reusableContentId ? `reusable:${attrs.reusableContentId}` : attrs.src;
          if (typeof current !== 'string' || current === '') break;
          const rewritten = rewrite(current, 'reusableContent');
          const id = /^reusable:(.+)$/.exec(rewritten)?.[1] ?? null;
          attrs.reusableContentId = id;
          attrs.src = id ? null : rewritten;
          break;
        }
        case 'file': {
          const current = attrs.fileId ? `file:${attrs.fileId}` : attrs.src;
          if (typeof current !== 'string' || current === '') break;
          const rewritten = rewrite(current, 'file');
          const next = parseTarget(rewritten);
          attrs.fileId = next.kind === 'file' ? next.fileId : null;
          attrs.src = next.kind === 'file' ? null : rewritten;
          break;
        }
      }
    }
    for (const mark of node.marks ?? []) {
      if (mark.type === 'link' && typeof mark.attrs?.href === 'string') mark.attrs.href = rewrite(mark.attrs.href, 'link');
    }
    node.content?.forEach(walk);
  };
  walk(copy);
  return copy;
}

/** Pages of a branch whose bodies refer to a page or a file, with the references found. */
export function findBacklinks(doc: Y.Doc, to: { pageId: string } | { fileId: string }): { pageId: string; links: BodyLink[] }[] {
  const out: { pageId: string; links: BodyLink[] }[] = [];
  const ids = [...pagesMap(doc).keys()].sort();
  for (const pageId of ids) {
    const map = pagesMap(doc).get(pageId);
    if (!(map instanceof Y.Map)) continue;
    const links = extractLinks(readBody(bodyFragment(map, false))).filter((link) => {
      const target = parseTarget(link.target);
      return 'pageId' in to ? target.kind === 'page' && target.pageId === to.pageId : target.kind === 'file' && target.fileId === to.fileId;
    });
    if (links.length > 0) out.push({ pageId, links });
  }
  return out;
}
