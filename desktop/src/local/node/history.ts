import { setPageDocument } from '@quire/shared/content/body';
import type { NodeJSON } from '@quire/shared/content/json';
import { getPage, updatePage } from '@quire/shared/content/pages';
import { markPageRestored } from '@quire/shared/content/restores';
import type { Member } from '@quire/shared/schemas/member';
import type { PageRevisionList, RevisionPage as RemoteRevisionPage } from '@quire/shared/schemas/pageHistory';
import type { BranchRef, PageHistoryView, PageRevisionView } from '../../common/ipc';
import { RemoteError, UnreachableError } from '../ServerClient';
import { type SpaceRow, getMeta, setMeta } from '../store/catalog';
import {
  type PageRevisionRow,
  type RevisionPage,
  loadPageRevisions,
  loadRevisionPage,
  savePageRevisions,
  saveRevisionPage,
} from '../store/history';
import { pendingPagesOf } from '../store/docs';
import { LocalError, type NodeContext, docIdOf } from './context';

/** Revisions listed at most, newest first: a page edited for years still answers at once. */
const MAX_LISTED = 500;
const PAGE_SIZE = 100;

/** Where the writers' names and pictures are kept between starts. */
const WRITERS_KEY = 'historyWriters';

const OFFLINE = 'Offline: this is the history kept on this machine. The rest needs a connection to the server.';

/**
 * A page's history: the server keeps the revisions, this machine keeps what it was shown
 * of them (the list and each revision's page once fetched), so the panel still works
 * offline with what it has. Restoring writes the old title and body into the branch as a
 * new edit, through the same local-first path as typing: saved here, then synced.
 */
export class History {
  constructor(private readonly ctx: NodeContext) {}

  /**
   * The revisions that changed the page. A change request keeps no revisions of its own (the
   * server cuts them of the main content only): its list is the main branch's, up to when the
   * change request was opened, and comparing with one of them shows everything since, the
   * change request's own edits included. The panel says so.
   */
  async list(ref: BranchRef, pageId: string): Promise<PageHistoryView> {
    const listed = await this.listed(ref, pageId);
    const unsent = await pendingPagesOf(this.ctx.db, docIdOf(ref));
    // This page first: the entry is about it, the others were touched with it.
    return { ...listed, unsentPages: unsent.includes(pageId) ? [pageId, ...unsent.filter((id) => id !== pageId)] : [] };
  }

  private async listed(ref: BranchRef, pageId: string): Promise<Omit<PageHistoryView, 'unsentPages'>> {
    const main = await this.mainList(ref, pageId);
    if (!ref.changeRequestId) return main;
    const cr = await this.ctx.changeRequests.orThrow(ref.changeRequestId);
    const forked = Date.parse(cr.createdAt);
    const opened = new Date(forked).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });
    const notice = `A change request has no history of its own: these are the main branch's versions of this page up to when this change request was opened (${opened}). Comparing with one shows everything since, this change request's edits included; restoring writes into this change request.`;
    return {
      ...main,
      revisions: main.revisions.filter((r) => Date.parse(r.createdAt) <= forked),
      notice: main.notice ? `${notice} ${main.notice}` : notice,
    };
  }

  private async mainList(ref: BranchRef, pageId: string): Promise<Omit<PageHistoryView, 'unsentPages'>> {
    const space = await this.ctx.catalog.spaceOrThrow(ref.spaceId);
    if (!space.remoteId || space.syncState !== 'remote') {
      return { revisions: [], source: 'local', notice: 'History is kept by the server: publish this space to keep its revisions.' };
    }
    const db = this.ctx.db;
    const fresh = await this.fetchList(space, pageId);
    if (fresh === 'unknown') {
      return {
        revisions: [],
        source: 'server',
        notice: 'The server has no revision of this page yet: it is cut a few seconds after edits stop.',
      };
    }
    if (fresh) {
      await savePageRevisions(db, space.id, pageId, fresh);
      const kept = new Map((await loadPageRevisions(db, space.id, pageId)).map((r) => [r.revisionId, r.cached]));
      return { revisions: await this.named(space, fresh, (r) => kept.get(r.revisionId) ?? false), source: 'server', notice: null };
    }
    return {
      revisions: await this.named(space, await loadPageRevisions(db, space.id, pageId), (r) => r.cached),
      source: 'cache',
      notice: OFFLINE,
    };
  }

  /** Display names of the members who cut revisions, asked of the server once each (while it answers). */
  private readonly names = new Map<string, { name: string; photo: string | null }>();
  /** Writers asked of the server since this start (a name kept from before may have changed). */
  private readonly asked = new Set<string>();
  private namesLoaded = false;

  /** The revisions as the panel lists them: who cut each one by name (this writer's own without asking). */
  private async named<R extends PageRevisionRow>(space: SpaceRow, rows: R[], cached: (r: R) => boolean): Promise<PageRevisionView[]> {
    const me = this.ctx.session.user;
    const client = this.ctx.session.server;
    if (!this.namesLoaded) {
      // Kept across restarts, so an offline history still names its writers.
      const kept = await getMeta<Record<string, { name: string; photo: string | null }>>(this.ctx.db, WRITERS_KEY);
      for (const [id, v] of Object.entries(kept ?? {})) if (!this.names.has(id)) this.names.set(id, v);
      this.namesLoaded = true;
    }
    let learned = false;
    for (const id of new Set(rows.map((r) => r.createdBy).filter((id): id is string => !!id))) {
      if (id === me.id || this.asked.has(id) || !client || !space.orgId || this.ctx.session.reachable === false) continue;
      const member = await client
        .get<Member>(`/v1/orgs/${encodeURIComponent(space.orgId)}/members/${encodeURIComponent(id)}`)
        .catch(() => undefined);
      if (!member?.user.displayName) continue;
      this.asked.add(id);
      this.names.set(id, { name: member.user.displayName, photo: member.user.photoURL ?? null });
      learned = true;
    }
    if (learned) await setMeta(this.ctx.db, WRITERS_KEY, Object.fromEntries(this.names));
    const nameOf = (id: string | null) => (!id ? null : id === me.id ? me.displayName : (this.names.get(id)?.name ?? null));
    const photoOf = (id: string | null) => (!id ? null : id === me.id ? null : (this.names.get(id)?.photo ?? null));
    return rows.map((r) => ({
      revisionId: r.revisionId,
      change: r.change,
      title: r.title,
      type: r.type,
      createdAt: r.createdAt,
      by: nameOf(r.createdBy),
      byId: r.createdBy,
      byPhoto: photoOf(r.createdBy),
      pages: r.pages,
      restoredFrom: r.restoredFrom,
      cached: cached(r),
    }));
  }

  /** The server's list, `undefined` when it cannot be asked now, `unknown` when it does not know the page. */
  private async fetchList(space: SpaceRow, pageId: string) {
    const client = this.ctx.session.server;
    if (!client || this.ctx.session.reachable === false) return undefined;
    const path = `/v1/spaces/${encodeURIComponent(space.remoteId as string)}/content/page/${encodeURIComponent(pageId)}/revisions`;
    try {
      const items: PageRevisionList['items'] = [];
      let cursor: string | undefined;
      do {
        const page = await client.get<PageRevisionList>(`${path}?limit=${PAGE_SIZE}${cursor ? `&page=${encodeURIComponent(cursor)}` : ''}`);
        items.push(...page.items);
        cursor = page.next?.page;
      } while (cursor && items.length < MAX_LISTED);
      return items.map((r) => ({
        revisionId: r.revision,
        change: r.change,
        title: r.title,
        type: r.type,
        createdAt: r.createdAt,
        createdBy: r.createdBy ?? null,
        restoredFrom: r.restoredFrom ?? null,
        pages: r.pages ?? [{ id: pageId, title: r.title, change: r.change }],
      }));
    } catch (err) {
      if (err instanceof RemoteError && err.status === 404) return 'unknown' as const;
      if (err instanceof UnreachableError) this.ctx.session.setReachable(false);
      return undefined;
    }
  }

  /** A page as it was in a revision: from this machine when fetched before, else from the server (and kept). */
  async page(ref: BranchRef, pageId: string, revisionId: string): Promise<RevisionPage> {
    const space = await this.ctx.catalog.spaceOrThrow(ref.spaceId);
    const kept = await loadRevisionPage(this.ctx.db, space.id, revisionId, pageId);
    if (kept) return kept;
    const client = this.ctx.session.server;
    if (!client || !space.remoteId) throw new LocalError('This version is not on this machine yet: comparing it needs a connection.');
    let remote: RemoteRevisionPage;
    try {
      remote = await client.get<RemoteRevisionPage>(
        `/v1/spaces/${encodeURIComponent(space.remoteId)}/revisions/${encodeURIComponent(revisionId)}/page/${encodeURIComponent(pageId)}?format=body`,
      );
    } catch (err) {
      if (err instanceof UnreachableError) {
        this.ctx.session.setReachable(false);
        throw new LocalError('This version is not on this machine yet: comparing it needs a connection.');
      }
      throw new LocalError(`The server could not give this version: ${(err as Error).message}`);
    }
    const page: RevisionPage = { title: remote.page.title, body: remote.body as NodeJSON };
    await saveRevisionPage(this.ctx.db, space.id, revisionId, pageId, page);
    return page;
  }

  /**
   * Makes the page read as it did in the revision again: one new edit, saved here first, then
   * synced, with the restore mark the server records it by. A window showing the page writes
   * the restore through its editor instead, so that its undo can take it back.
   */
  async restore(ref: BranchRef, pageId: string, revisionId: string): Promise<void> {
    const old = await this.page(ref, pageId, revisionId);
    await this.ctx.branches.with(ref, async (branch) => {
      if (!getPage(branch.doc, pageId)) throw new LocalError('This page was deleted here: there is nothing to restore into.');
      branch.doc.transact(() => {
        setPageDocument(branch.doc, pageId, old.body);
        updatePage(branch.doc, pageId, { title: old.title });
        markPageRestored(branch.doc, pageId, { revision: revisionId, by: this.ctx.session.user.id, at: new Date().toISOString() });
      });
      await branch.saved();
    });
  }
}
