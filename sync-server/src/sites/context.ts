import { htmlTargets } from '@quire/shared/content/htmlTargets';
import type { NodeJSON } from '@quire/shared/content/json';
import { parseTarget } from '@quire/shared/content/targets';
import { signedFileUrl } from '../core/content/exports';
import type { Queryable } from '../store/db';
import type { PublishedHead } from '../store/sites';
import { type ContentSource, type PublishedPage, revisionContentSource, type SpaceSnapshot } from './contentSource';
import { withApiPages } from './apiPages';
import { fileByPath, isRelativePath } from './assetPaths';
import { imageSize, imageSource } from './images';
import type { Section, SiteView, Variant } from './model';
import type { ImageSource } from './render/body';

/**
 * One request to a published site: where it is mounted, what the visitor may see, and
 * the URLs of everything in it. URLs are built here and nowhere else.
 */
export interface Mount {
  /** Path prefix the site is served under: `/s/<org>/<basename>`, or '' at its own hostname. */
  root: string;
  /** Scheme and host the visitor used (for absolute URLs: canonical, sitemap, llms.txt). */
  origin: string;
  /** Base URL of the server itself (file downloads live there). */
  serverBase: string;
}

export interface Located {
  section: Section;
  variant: Variant;
  snapshot: SpaceSnapshot;
  /** Pages of the variant in reading order (hidden ones included). */
  flat: PublishedPage[];
  page: PublishedPage;
}

let source: ContentSource = revisionContentSource;

/** Replaces where content comes from (a test double, or another storage). */
export function setContentSource(next: ContentSource) {
  source = next;
}

const EMPTY: SpaceSnapshot = { revisionId: '', pages: [], files: {}, body: async () => ({ type: 'doc', content: [] }) };

export class SiteRequest {
  constructor(
    readonly db: Queryable,
    readonly head: PublishedHead,
    readonly view: SiteView,
    readonly mount: Mount,
    readonly theme: 'light' | 'dark',
  ) {}

  get site() {
    return this.head.site;
  }

  private readonly snapshots = new Map<string, Promise<SpaceSnapshot>>();

  /** A variant's content, with the pages of its API references (read once per request). */
  snapshot(v: Variant): Promise<SpaceSnapshot> {
    const id = v.revisionId;
    if (!id) return Promise.resolve(EMPTY);
    let snap = this.snapshots.get(id);
    if (!snap) {
      snap = source.snapshot(this.db, id).then((s) => withApiPages(this.db, this.site.org_id, s));
      this.snapshots.set(id, snap);
    }
    return snap;
  }

  sectionRoot(s: Section): string {
    return s.isDefault ? this.mount.root : `${this.mount.root}/${s.path}`;
  }

  variantRoot(s: Section, v: Variant): string {
    return v.isDefault ? this.sectionRoot(s) : `${this.sectionRoot(s)}/${v.path}`;
  }

  /** The page at a variant's root: its first document page that is neither hidden nor below a hidden page. */
  firstPage(flat: PublishedPage[]): PublishedPage | undefined {
    for (let i = 0; i < flat.length; i++) {
      const p = flat[i] as PublishedPage;
      // `flat` is in reading order, so a page's descendants follow it: skip them with it.
      if (p.hidden) i += flatten(p.children).length;
      else if (p.type === 'document') return p;
    }
    return undefined;
  }

  pageUrl(s: Section, v: Variant, flat: PublishedPage[], page: PublishedPage): string {
    return this.firstPage(flat)?.id === page.id ? `${this.variantRoot(s, v)}/` : `${this.variantRoot(s, v)}/${page.path}`;
  }

  markdownUrl(s: Section, v: Variant, page: PublishedPage): string {
    return `${this.variantRoot(s, v)}/${page.path}.md`;
  }

  absolute(path: string): string {
    return `${this.mount.origin}${path}`;
  }

  /** Finds the section, variant and page a path (below the site root) names. */
  async locate(rest: string): Promise<Located | undefined> {
    const segs = rest
      .split('/')
      .filter(Boolean)
      .map((s) => safeDecode(s));
    if (segs.some((s) => s === undefined)) return undefined;
    const parts = segs as string[];
    const sections = this.view.sections;
    let section = sections.length > 1 ? sections.find((s) => s.id && s.path === parts[0]) : undefined;
    if (section) parts.shift();
    else section = sections.find((s) => s.isDefault);
    if (!section) return undefined;
    let variant = section.variants.length > 1 ? section.variants.find((v) => v.path === parts[0]) : undefined;
    if (variant) parts.shift();
    else variant = section.variants.find((v) => v.isDefault);
    if (!variant) return undefined;
    const snapshot = await this.snapshot(variant);
    const flat = flatten(snapshot.pages);
    const path = parts.join('/');
    const page = path ? flat.find((p) => p.path === path) : this.firstPage(flat);
    if (!page) return undefined;
    return { section, variant, snapshot, flat, page };
  }

  /** Signed download URLs of the files a body shows. */
  async fileUrls(v: Variant, snapshot: SpaceSnapshot, body: NodeJSON): Promise<Map<string, string>> {
    const ids = new Set<string>();
    const walk = (n: NodeJSON) => {
      const a = n.attrs ?? {};
      if (typeof a.fileId === 'string' && a.fileId) ids.add(a.fileId);
      for (const v of [a.src, a.srcDark, a.href, a.url]) {
        if (typeof v !== 'string') continue;
        if (v.startsWith('file:')) ids.add(v.slice(5));
        else if (isRelativePath(v)) {
          const f = fileByPath(snapshot.files, v.split('#')[0] as string);
          if (f) ids.add(f.id);
        }
      }
      // Raw HTML names files as an import left them (`file:<id>`) or by repository path, `srcset` candidates included.
      if ((n.type === 'htmlBlock' || n.type === 'htmlInline') && typeof a.html === 'string')
        for (const { target } of htmlTargets(a.html)) {
          const t = parseTarget(target);
          if (t.kind === 'file') ids.add(t.fileId);
          else if (t.kind === 'path' && isRelativePath(t.path)) {
            const f = fileByPath(snapshot.files, t.path);
            if (f) ids.add(f.id);
          }
        }
      for (const m of n.marks ?? [])
        if (typeof m.attrs?.href === 'string' && m.attrs.href.startsWith('file:')) ids.add(m.attrs.href.slice(5));
      n.content?.forEach(walk);
    };
    walk(body);
    const out = new Map<string, string>();
    for (const id of ids) {
      const f = snapshot.files[id];
      if (f) out.set(id, await signedFileUrl(this.db, { base: this.mount.serverBase, holder: `s.${this.site.id}` }, v.spaceId, id, f.name));
    }
    return out;
  }

  /** Space images of a body with their resized variants (see images.ts), by file id. */
  async imageSources(v: Variant, snapshot: SpaceSnapshot, urls: Map<string, string>): Promise<Map<string, ImageSource>> {
    const out = new Map<string, ImageSource>();
    for (const [id, url] of urls) {
      const f = snapshot.files[id];
      if (!f || !f.contentType.startsWith('image/')) continue;
      const size = await imageSize(this.db, v.spaceId, f);
      out.set(id, imageSource(`${this.mount.root}/~img/${snapshot.revisionId}/${encodeURIComponent(id)}`, url, f, size));
    }
    return out;
  }
}

export function flatten(pages: PublishedPage[]): PublishedPage[] {
  const out: PublishedPage[] = [];
  const walk = (list: PublishedPage[]) => {
    for (const p of list) {
      out.push(p);
      walk(p.children);
    }
  };
  walk(pages);
  return out;
}

function safeDecode(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}
