import { parseTarget } from '@quire/shared/content/index';
import type { File, Page } from '@quire/shared/schemas/content';
import type { Materialized, PageEntry } from '../content/materialize';
import type { RevisionRead } from '../content/downloadLinks';
import type { EntryTreeNode } from '../content/tree';
import { pageTreeOf } from '../content/tree';
import { compact } from './iso';

/** Where a branch's pages open in the app. */
export function appBase(base: string, spaceId: string, changeRequestId?: string | null) {
  return changeRequestId ? `${base}/app/spaces/${spaceId}/change-requests/${changeRequestId}` : `${base}/app/spaces/${spaceId}`;
}

/** The public client tells pages apart by `kind`; a computed page has none. */
const PAGE_KINDS: Record<string, string | undefined> = { document: 'sheet', group: 'group', link: 'link' };

/** A link page's `href` as a content reference: a page of the space stays a page, anything else is a URL. */
function linkTarget(href: string): Page['target'] {
  const t = parseTarget(href);
  return t.kind === 'page' ? { kind: 'page', page: t.pageId } : { kind: 'url', url: href };
}

/**
 * A page entry as the wire Page, without its body and (unless `nested`) without its
 * children. `metadata: false` leaves out the git metadata (what changes when the
 * repository does, not the content).
 */
export function presentPage(node: EntryTreeNode | (PageEntry & { path: string }), app: string, nested: boolean, metadata = true): Page {
  const children = 'children' in node && nested ? node.children.map((c) => presentPage(c, app, true, metadata)) : [];
  return compact({
    id: node.id,
    title: node.title,
    emoji: node.emoji ?? undefined,
    icon: node.icon ?? undefined,
    createdAt: node.createdAt,
    updatedAt: node.updatedAt,
    type: node.type,
    kind: PAGE_KINDS[node.type],
    href: node.type === 'link' ? (node.href ?? undefined) : undefined,
    target: node.type === 'link' && node.href ? linkTarget(node.href) : undefined,
    urls: { app: `${app}/pages/${node.id}` },
    slug: node.slug,
    path: node.path,
    description: node.description || undefined,
    pages: children,
    layout: node.layout ?? undefined,
    cover: node.cover ?? undefined,
    variables: Object.keys(node.variables ?? {}).length ? node.variables : undefined,
    hidden: node.hidden,
    noIndex: node.noIndex || undefined,
    noRobotsIndex: node.noRobotsIndex || undefined,
    computed: node.computed ? (node.computed as Page['computed']) : undefined,
    git: metadata && node.git ? node.git : undefined,
    tags: node.type === 'document' ? [] : undefined,
  }) as Page;
}

/**
 * The top-level pages of a revision, each with its children nested. A computed page is
 * listed by its definition whether or not `computed` is asked for: only its body is computed.
 */
export function presentPageTree(content: Materialized, app: string, metadata = true): Page[] {
  return pageTreeOf(content).map((n) => presentPage(n, app, true, metadata));
}

/** Files of a branch, with their download links where their bytes are stored (`downloadLinks`). */
export function presentFiles(files: Materialized['files'][string][], downloads: Map<string, string>, metadata = true): File[] {
  return files.map(
    (f) =>
      compact({
        id: f.id,
        name: f.name,
        contentType: f.contentType,
        downloadURL: downloads.get(f.id) ?? '',
        size: f.size,
        dimensions: f.dimensions,
        git: metadata ? f.git : undefined,
      }) as File,
  );
}

export function presentRevision(base: string, { head, content, downloads }: RevisionRead, opts: { metadata: boolean }) {
  const app = appBase(base, head.space_id, head.change_request_id);
  const files = Object.values(content.files).sort((a, b) => (a.name === b.name ? (a.id < b.id ? -1 : 1) : a.name < b.name ? -1 : 1));
  return {
    object: 'revision' as const,
    id: head.id,
    parents: head.parents,
    pages: presentPageTree(content, app, opts.metadata),
    files: presentFiles(files, downloads, opts.metadata),
    reusableContents: Object.values(content.reusableContents).map((r) => ({ id: r.id, title: r.title })),
    variables: content.variables,
    tags: [],
    createdAt: new Date(head.created_at).toISOString(),
    type: head.type,
    urls: { app: `${app}/revisions/${head.id}` },
    permissions: { view: true },
  };
}
