import { newId } from '@quire/shared/ids';
import type { Catalog as CatalogView, SpaceSummary } from '../../common/ipc';
import { seedNewSpace } from '../content';
import {
  type SpaceRow,
  getSpace,
  insertLocalSpace,
  listCollections,
  listOrgs,
  listSpaces,
  replaceCatalog,
  setSpacePublishing,
  updateSpaceLocal,
} from '../store/catalog';
import { listChangeRequests } from '../store/changeRequests';
import { type CommentRow, listComments } from '../store/comments';
import type { Queryable } from '../store/database';
import { appendDocUpdateIn } from '../store/docs';
import { enqueue } from '../store/outbox';
import { LocalError, type NodeContext, docIdOf, type CatalogPart } from './context';
import { LOCAL_USER } from './session';

const summary = (s: SpaceRow): SpaceSummary => ({
  id: s.id,
  title: s.title,
  emoji: s.emoji,
  organizationId: s.orgId,
  collectionId: s.collectionId,
  syncState: s.syncState,
});

/** Organizations, collections and spaces: what the sidebar lists, and creating, renaming and publishing spaces. */
export class Catalog implements CatalogPart {
  constructor(private readonly ctx: NodeContext) {}

  async get(): Promise<CatalogView> {
    const db = this.ctx.db;
    const [orgs, collections, spaces] = await Promise.all([listOrgs(db), listCollections(db), listSpaces(db)]);
    const orgIds = new Set(orgs.map((o) => o.id));
    return {
      organizations: orgs.map((o) => ({
        id: o.id,
        title: o.title,
        collections: collections.filter((c) => c.orgId === o.id).map((c) => ({ id: c.id, title: c.title, parentId: c.parentId })),
        spaces: spaces.filter((s) => s.orgId === o.id && s.syncState !== 'local').map(summary),
      })),
      localSpaces: spaces.filter((s) => s.syncState === 'local' || !s.orgId || !orgIds.has(s.orgId)).map(summary),
    };
  }

  /** Fetches organizations, collections and spaces from the server into the local database. */
  async refresh(): Promise<CatalogView> {
    const client = this.ctx.session.server;
    if (!client) return this.get();
    interface RemoteOrg {
      id: string;
      title: string;
    }
    interface RemoteCollection {
      id: string;
      title: string;
      parent?: string;
    }
    interface RemoteSpace {
      id: string;
      title: string;
      emoji?: string;
      parent?: string;
    }
    const orgs = await client.listAll<RemoteOrg>('/v1/orgs');
    const collections: { id: string; orgId: string; parentId: string | null; title: string }[] = [];
    const spaces: { id: string; orgId: string; collectionId: string | null; title: string; emoji: string | null }[] = [];
    for (const org of orgs) {
      const [cols, sps] = await Promise.all([
        client.listAll<RemoteCollection>(`/v1/orgs/${org.id}/collections`).catch(() => [] as RemoteCollection[]),
        client.listAll<RemoteSpace>(`/v1/orgs/${org.id}/spaces`).catch(() => [] as RemoteSpace[]),
      ]);
      for (const c of cols) collections.push({ id: c.id, orgId: org.id, parentId: c.parent ?? null, title: c.title });
      for (const s of sps) spaces.push({ id: s.id, orgId: org.id, collectionId: s.parent ?? null, title: s.title, emoji: s.emoji ?? null });
    }
    await this.ctx.db.transaction((tx) =>
      replaceCatalog(tx, { orgs: orgs.map((o) => ({ id: o.id, title: o.title })), collections, spaces }),
    );
    this.ctx.events.emit('catalog');
    return this.get();
  }

  async spaceOrThrow(spaceId: string): Promise<SpaceRow> {
    const space = await getSpace(this.ctx.db, spaceId);
    if (!space) throw new LocalError('This space is not on this machine.');
    return space;
  }

  private async spaceSummary(spaceId: string): Promise<SpaceSummary> {
    return summary(await this.spaceOrThrow(spaceId));
  }

  /**
   * Creates a space here and now, with a first page. With an organization it is also
   * queued for creation on the server (and syncs once created); without, it stays local
   * until published.
   */
  async createSpace(input: { title: string; emoji?: string; organizationId?: string }): Promise<SpaceSummary> {
    if (input.organizationId && this.ctx.session.mode !== 'server')
      throw new LocalError('Sign in to a server to create a space in an organization.');
    const id = newId();
    const seed = seedNewSpace(input.title);
    await this.ctx.db.transaction(async (tx) => {
      await insertLocalSpace(tx, { id, title: input.title, emoji: input.emoji ?? null, orgId: null, syncState: 'local' });
      // Counted as waiting: the first page is content the server does not have yet.
      await appendDocUpdateIn(tx, docIdOf({ spaceId: id }), seed, true);
    });
    if (input.organizationId) await this.publishSpace(id, input.organizationId);
    this.ctx.events.emit('catalog');
    return this.spaceSummary(id);
  }

  async renameSpace(input: { spaceId: string; title?: string; emoji?: string | null }): Promise<SpaceSummary> {
    const space = await this.spaceOrThrow(input.spaceId);
    await this.ctx.db.transaction(async (tx) => {
      await updateSpaceLocal(tx, space.id, { title: input.title, emoji: input.emoji });
      if (space.syncState !== 'local') {
        const body: Record<string, unknown> = {};
        if (input.title !== undefined) body.title = input.title;
        if (input.emoji !== undefined) body.emoji = input.emoji;
        await enqueue(tx, 'space.update', { spaceId: space.id, body }, `Rename space “${input.title ?? space.title}”`);
      }
    });
    this.ctx.queue.afterEnqueue();
    this.ctx.events.emit('catalog');
    return this.spaceSummary(space.id);
  }

  /**
   * Publishes a local space to an organization on the server: creation is queued (exactly
   * once, by its idempotency key), then the branch pushes its whole state over sync, and
   * the comments and change requests made meanwhile follow in the outbox, in order.
   */
  async publishSpace(spaceId: string, organizationId: string): Promise<SpaceSummary> {
    if (this.ctx.session.mode !== 'server') throw new LocalError('Sign in to a server before publishing.');
    const space = await this.spaceOrThrow(spaceId);
    if (space.syncState !== 'local') throw new LocalError('This space is already on a server.');
    await this.ctx.db.transaction(async (tx) => {
      await setSpacePublishing(tx, space.id, organizationId);
      await enqueue(
        tx,
        'space.publish',
        { spaceId: space.id, organizationId, title: space.title, emoji: space.emoji },
        `Publish space “${space.title}”`,
      );
      // What was made while the space was local follows its creation, oldest first.
      const comments = await listComments(tx, space.id, null);
      await this.queueLocalComments(tx, comments);
      for (const cr of (await listChangeRequests(tx, space.id)).reverse()) {
        if (cr.syncState !== 'local' || cr.mergeState === 'merged') continue;
        await tx.query("UPDATE change_requests SET sync_state = 'pending' WHERE id = $1", [cr.id]);
        await enqueue(
          tx,
          'changeRequest.create',
          { changeRequestId: cr.id, spaceId: space.id, subject: cr.subject },
          `Open change request “${cr.subject}”`,
        );
        await this.queueLocalComments(tx, await listComments(tx, space.id, cr.id));
      }
      await this.ctx.files.queueLocalFiles(tx, space.id);
    });
    this.ctx.queue.afterEnqueue();
    this.ctx.events.emit('catalog');
    return this.spaceSummary(space.id);
  }

  private async queueLocalComments(tx: Queryable, comments: CommentRow[]) {
    const me = this.ctx.session.user.id;
    for (const c of comments) {
      if (c.syncState !== 'local') continue;
      await tx.query("UPDATE comments SET sync_state = 'pending' WHERE id = $1", [c.id]);
      if (c.parentId) await enqueue(tx, 'comment.reply', { replyId: c.id, commentId: c.parentId }, 'Reply to a comment');
      else await enqueue(tx, 'comment.create', { commentId: c.id }, 'Post a comment');
      if (!c.parentId && c.resolved) await enqueue(tx, 'comment.resolve', { commentId: c.id, resolved: true }, 'Resolve a comment');
      for (const r of c.reactions) {
        if (r.users.includes(me) || r.users.includes(LOCAL_USER.id)) {
          await enqueue(
            tx,
            'comment.react',
            { commentId: c.parentId ?? c.id, replyId: c.parentId ? c.id : undefined, emoji: r.emoji, on: true },
            `React ${r.emoji}`,
          );
        }
      }
    }
  }
}
