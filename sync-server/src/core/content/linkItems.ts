import type { Organization, Space } from '@quire/shared';
import type { File } from '@quire/shared/schemas/content';
import type { Materialized } from './materialize';
import type { Target } from './model';
import { type LinkStatus, linkStatus } from './read';
import { pagePaths } from './tree';
import type { DbHandle } from '../platform/deps';
import { presentFiles } from '../views/content';
import { downloadLinks } from './downloadLinks';
import type { LinkBase } from './exports';

/** The organization, space and revision every location of a read is in. */
export interface LinkScope {
  db: DbHandle;
  /** Where links point (`links.base`), and whom the files' download links are handed to. */
  links: LinkBase;
  revisionId: string;
  content: Materialized;
  organization: Organization;
  space: Space;
  /**
   * On a change request's branch, main's content it last took in: a broken link that was
   * not written, or not broken, there is one the change request broke, and counts in
   * `stats.broken.changeRequest`.
   */
  mainBase?: { revisionId: string; content: Materialized };
}

export interface LinkItem {
  status: LinkStatus;
  relation: 'reference';
  targetReference: Record<string, unknown>;
  locationReferences: Record<string, unknown>[];
}

function pageRef(scope: LinkScope, pageId: string) {
  const page = scope.content.pages[pageId];
  if (!page) return { id: pageId };
  return { id: pageId, title: page.title, path: pagePaths(scope.content).get(pageId) ?? page.slug };
}

function where(scope: LinkScope) {
  return {
    organization: scope.organization,
    space: scope.space,
    versionContext: { type: 'revision' as const, revision: scope.revisionId },
  };
}

/** A target's identity within the revision: the same target written in several pages is one link. */
function targetKey(fromPageId: string, t: Target): string {
  switch (t.kind) {
    case 'page':
      return `page:${t.pageId}#${t.anchor ?? ''}`;
    case 'file':
      return `file:${t.fileId}`;
    case 'anchor':
      return `page:${fromPageId}#${t.anchor}`;
    case 'url':
      return `url:${t.url}`;
    case 'path':
      return `path:${t.path}#${t.anchor ?? ''}`;
  }
}

async function targetReference(scope: LinkScope, fromPageId: string, t: Target, files: Map<string, File>) {
  switch (t.kind) {
    case 'page':
      return { kind: 'page', ...where(scope), page: pageRef(scope, t.pageId), ...(t.anchor ? { anchor: t.anchor } : {}) };
    case 'file':
      return { kind: 'file', ...where(scope), file: files.get(t.fileId) ?? { id: t.fileId } };
    case 'anchor':
      return { kind: 'anchor', ...where(scope), page: pageRef(scope, fromPageId), anchor: t.anchor };
    case 'url':
      return { kind: 'url', url: t.url };
    case 'path':
      return { kind: 'url', url: t.anchor ? `${t.path}#${t.anchor}` : t.path };
  }
}

/**
 * The links written in some pages of a revision, one item per distinct target with every
 * page it is written in, and its status (`broken` when a page, file or heading it names
 * is not in the revision, `in-app` for links into this server's app).
 */
/** A link of a read, with what its stats need: its target and the pages it is written in. */
export interface LinkFound {
  key: string;
  item: LinkItem;
  target: Target;
  locations: string[];
}

export async function linkItems(scope: LinkScope, pageIds: string[]): Promise<LinkFound[]> {
  const byKey = new Map<string, { from: string; target: Target; locations: string[] }>();
  for (const pageId of pageIds) {
    for (const t of scope.content.pages[pageId]?.links ?? []) {
      const key = targetKey(pageId, t);
      const found = byKey.get(key);
      if (found) {
        if (!found.locations.includes(pageId)) found.locations.push(pageId);
      } else byKey.set(key, { from: pageId, target: t, locations: [pageId] });
    }
  }
  const fileIds = [...byKey.values()].flatMap((l) =>
    l.target.kind === 'file' && scope.content.files[l.target.fileId] ? [l.target.fileId] : [],
  );
  const linked = fileIds.map((id) => scope.content.files[id] as never);
  const presented = presentFiles(linked, await downloadLinks(scope.db, scope.links, scope.space.id, linked));
  const files = new Map(presented.map((f) => [f.id, f]));
  const out: LinkFound[] = [];
  for (const [key, l] of byKey) {
    out.push({
      key,
      target: l.target,
      locations: l.locations,
      item: {
        status: await linkStatus(scope.db, scope.revisionId, scope.content, l.from, l.target, scope.links.base),
        relation: 'reference',
        targetReference: await targetReference(scope, l.from, l.target, files),
        locationReferences: l.locations.map((p) => ({ kind: 'page', ...where(scope), page: pageRef(scope, p) })),
      },
    });
  }
  return out;
}

export async function linkStats(scope: LinkScope, items: LinkFound[]) {
  const broken = items.filter((i) => i.item.status === 'broken');
  let byChangeRequest = 0;
  if (scope.mainBase) for (const i of broken) if (!(await brokenOnMain(scope, scope.mainBase, i))) byChangeRequest++;
  return { total: items.length, broken: { total: broken.length, changeRequest: byChangeRequest } };
}

/** Whether main's content already had this link, written in one of the same pages, broken. */
async function brokenOnMain(scope: LinkScope, main: NonNullable<LinkScope['mainBase']>, found: LinkFound): Promise<boolean> {
  const from = found.locations.find((p) => main.content.pages[p]?.links.some((t) => targetKey(p, t) === found.key));
  if (!from) return false;
  return (await linkStatus(scope.db, main.revisionId, main.content, from, found.target, scope.links.base)) === 'broken';
}

/** Pages of the revision whose body points at a page (any heading of it) or at a file. */
export function backlinkItems(scope: LinkScope, to: { pageId: string } | { fileId: string }) {
  const out: { key: string; item: Record<string, unknown> }[] = [];
  for (const page of Object.values(scope.content.pages)) {
    const hit = page.links.some((t) =>
      'pageId' in to ? t.kind === 'page' && t.pageId === to.pageId : t.kind === 'file' && t.fileId === to.fileId,
    );
    if (hit) out.push({ key: page.id, item: { kind: 'page', ...where(scope), page: pageRef(scope, page.id) } });
  }
  return out;
}
