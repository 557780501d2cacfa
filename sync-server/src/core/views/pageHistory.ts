import type { NodeJSON } from '@quire/shared/content/index';
import type { PageChangeRow, PageRevisionRow } from '../../store/revisionPages';
import { iso } from './iso';

/** A revision that changed a page; `base` is the space's `/revisions` URL. */
export function presentPageRevision(r: PageRevisionRow & { pages: PageChangeRow[] }, base: string, pageId: string) {
  return {
    object: 'page-revision' as const,
    revision: r.revision_id,
    change: r.change,
    title: r.title,
    type: r.type,
    ...(r.created_by ? { createdBy: r.created_by } : {}),
    ...(r.type === 'restore' && r.parents[1] ? { restoredFrom: r.parents[1] } : {}),
    createdAt: iso(r.created_at) as string,
    pages: r.pages.map((t) => ({ id: t.pageId, title: t.title, change: t.change })),
    urls: { page: `${base}/${r.revision_id}/page/${pageId}` },
    permissions: { view: true },
  };
}

/** A page as it was in a revision: `shown` is the page presented, `read` its body in the format asked for. */
export function presentRevisionPage<P extends object>(p: {
  revision: string;
  shown: P;
  format: 'document' | 'markdown' | 'body';
  read: unknown;
  body: NodeJSON | undefined;
  location: string;
}) {
  const page =
    p.format === 'body' ? p.shown : p.format === 'markdown' ? { ...p.shown, markdown: p.read as string } : { ...p.shown, document: p.read };
  return {
    object: 'revision-page' as const,
    revision: p.revision,
    page,
    ...(p.body !== undefined ? { body: p.body } : {}),
    urls: { location: p.location },
    permissions: { view: true },
  };
}

/** A main-content revision as its whole Yjs state, base64. */
export function presentRevisionState(revision: string, state: Uint8Array, location: string) {
  return {
    object: 'revision-state' as const,
    revision,
    state: Buffer.from(state.buffer, state.byteOffset, state.byteLength).toString('base64'),
    urls: { location },
    permissions: { view: true },
  };
}
