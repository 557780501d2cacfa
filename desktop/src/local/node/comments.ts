import { listCommentAnchors, setCommentAnchor, setCommentAnchorsResolved } from '@quire/shared/content/commentAnchors';
import { newId } from '@quire/shared/ids';
import type { BranchRef, CommentAnchorInput, CommentView } from '../../common/ipc';
import { branchKey } from '../../common/ipc';
import { commentsPath } from '../paths';
import { UnreachableError } from '../ServerClient';
import type { SpaceRow } from '../store/catalog';
import { getChangeRequest } from '../store/changeRequests';
import {
  type CommentRow,
  type RemoteComment,
  getComment,
  insertComment,
  listComments,
  mergeRemoteComments,
  setReactions,
  setResolved,
  toggleReaction,
} from '../store/comments';
import { enqueue } from '../store/outbox';
import { LocalError, type NodeContext } from './context';

/** Comments on pages of a branch, with replies, reactions and resolution: stored here at once, sent by the outbox. */
export class Comments {
  constructor(private readonly ctx: NodeContext) {}

  private view(rows: CommentRow[]): CommentView[] {
    const me = this.ctx.session.user.id;
    const reactionsView = (c: CommentRow) =>
      c.reactions.map((r) => ({ emoji: r.emoji, count: r.users.length, mine: r.users.includes(me) }));
    const top = rows.filter((r) => !r.parentId);
    return top.map((c) => ({
      id: c.id,
      serverId: c.remoteId,
      pageId: c.pageId,
      author: c.author,
      body: c.body,
      postedAt: c.postedAt,
      resolved: c.resolved,
      reactions: reactionsView(c),
      syncState: c.syncState,
      error: c.error,
      replies: rows
        .filter((r) => r.parentId === c.id)
        .map((r) => ({
          id: r.id,
          author: r.author,
          body: r.body,
          postedAt: r.postedAt,
          reactions: reactionsView(r),
          syncState: r.syncState,
          error: r.error,
        })),
    }));
  }

  async list(ref: BranchRef, pageId?: string): Promise<CommentView[]> {
    await this.ctx.catalog.spaceOrThrow(ref.spaceId);
    return this.view(await listComments(this.ctx.db, ref.spaceId, ref.changeRequestId ?? null, pageId));
  }

  private async thread(commentId: string): Promise<CommentView> {
    const db = this.ctx.db;
    const c = await getComment(db, commentId);
    if (!c) throw new LocalError('This comment is not on this machine.');
    const rootId = c.parentId ?? c.id;
    const root = await getComment(db, rootId);
    const rows = await listComments(db, c.spaceId, c.changeRequestId);
    const view = this.view(rows.filter((r) => r.id === rootId || r.parentId === rootId));
    if (!view[0] || !root) throw new LocalError('This comment is not on this machine.');
    return view[0];
  }

  /** Pulls the server's comments of a branch (with replies) into the local database. */
  async refresh(ref: BranchRef): Promise<CommentView[]> {
    const { db, session, events } = this.ctx;
    const space = await this.ctx.catalog.spaceOrThrow(ref.spaceId);
    const client = session.server;
    const cr = ref.changeRequestId ? await getChangeRequest(db, ref.changeRequestId) : undefined;
    const base = commentsPath(space, cr);
    if (client && session.reachable && base) {
      try {
        const comments = await client.listAll<RemoteComment>(`${base}?order=asc`);
        const withReplies: { comment: RemoteComment; replies: RemoteComment[] }[] = [];
        for (const comment of comments) {
          let replies: RemoteComment[] = [];
          if ((comment.replies ?? 0) > 0) {
            replies = await client.listAll<RemoteComment>(`${base}/${comment.id}/replies`).catch(() => [] as RemoteComment[]);
          }
          withReplies.push({ comment, replies });
        }
        const scope = { spaceId: space.id, changeRequestId: ref.changeRequestId ?? null };
        const before = JSON.stringify(await listComments(db, scope.spaceId, scope.changeRequestId));
        await db.transaction((tx) => mergeRemoteComments(tx, scope, withReplies));
        // Only a real change is announced: windows re-list on it, which refreshes again.
        const after = await listComments(db, scope.spaceId, scope.changeRequestId);
        await this.markAnchors(ref, after);
        if (JSON.stringify(after) !== before) events.emit('comments', branchKey(ref));
      } catch (err) {
        if (err instanceof UnreachableError) session.setReachable(false);
      }
    }
    return this.list(ref);
  }

  private async target(ref: BranchRef): Promise<{ space: SpaceRow; queued: boolean }> {
    const space = await this.ctx.catalog.spaceOrThrow(ref.spaceId);
    let queued = space.syncState !== 'local';
    if (ref.changeRequestId) {
      const cr = await this.ctx.changeRequests.orThrow(ref.changeRequestId);
      queued = queued && cr.syncState !== 'local';
    }
    return { space, queued };
  }

  private author() {
    const user = this.ctx.session.user;
    return { id: user.id, displayName: user.displayName };
  }

  private changed(ref: BranchRef) {
    this.ctx.queue.afterEnqueue();
    this.ctx.events.emit('comments', branchKey(ref));
  }

  /**
   * Resolution decided elsewhere (another client, the API) shows in the page too: the
   * passages of resolved threads are no longer marked, those of reopened ones are again.
   */
  private async markAnchors(ref: BranchRef, rows: CommentRow[]): Promise<void> {
    // Only a branch open here (a window shows it): a closed one is marked on a refresh while it is open.
    if (!this.ctx.branches.get(ref)) return;
    await this.ctx.branches.with(ref, async (branch) => {
      if (listCommentAnchors(branch.doc).size === 0) return;
      let changed = 0;
      for (const c of rows) if (!c.parentId) changed += setCommentAnchorsResolved(branch.doc, [c.id, c.remoteId ?? c.id], c.resolved);
      if (changed) await branch.saved();
    });
  }

  /**
   * Posts a comment on a page: stored at once, sent when the server is reachable. With an
   * `anchor` (the passage selected in the page), the passage is marked in the branch for
   * everyone who has it, until the thread is resolved.
   */
  async post(ref: BranchRef, pageId: string, markdown: string, anchor?: CommentAnchorInput): Promise<CommentView> {
    const { space, queued } = await this.target(ref);
    const id = newId();
    await this.ctx.db.transaction(async (tx) => {
      await insertComment(tx, {
        id,
        spaceId: space.id,
        changeRequestId: ref.changeRequestId ?? null,
        pageId,
        parentId: null,
        author: this.author(),
        body: markdown,
        syncState: queued ? 'pending' : 'local',
      });
      if (queued) await enqueue(tx, 'comment.create', { commentId: id, ...(anchor ? { anchored: true } : {}) }, 'Post a comment');
    });
    if (anchor) {
      await this.ctx.branches.with(ref, async (branch) => {
        setCommentAnchor(branch.doc, id, { page: pageId, comment: id, from: anchor.from, to: anchor.to });
        await branch.saved();
      });
    }
    this.changed(ref);
    return this.thread(id);
  }

  async reply(commentId: string, markdown: string): Promise<CommentView> {
    const parent = await getComment(this.ctx.db, commentId);
    if (!parent || parent.parentId) throw new LocalError('Replies go on a comment that is on this machine.');
    const ref = { spaceId: parent.spaceId, changeRequestId: parent.changeRequestId ?? undefined };
    const { space, queued } = await this.target(ref);
    const id = newId();
    await this.ctx.db.transaction(async (tx) => {
      await insertComment(tx, {
        id,
        spaceId: space.id,
        changeRequestId: parent.changeRequestId,
        pageId: parent.pageId,
        parentId: parent.id,
        author: this.author(),
        body: markdown,
        syncState: queued ? 'pending' : 'local',
      });
      if (queued) await enqueue(tx, 'comment.reply', { replyId: id, commentId: parent.id }, 'Reply to a comment');
    });
    this.changed(ref);
    return this.thread(parent.id);
  }

  async react(input: { commentId: string; replyId?: string; emoji: string; on: boolean }): Promise<CommentView> {
    const target = await getComment(this.ctx.db, input.replyId ?? input.commentId);
    if (!target || (input.replyId && target.parentId !== input.commentId)) throw new LocalError('This comment is not on this machine.');
    const ref = { spaceId: target.spaceId, changeRequestId: target.changeRequestId ?? undefined };
    const { queued } = await this.target(ref);
    await this.ctx.db.transaction(async (tx) => {
      await setReactions(tx, target.id, toggleReaction(target.reactions, input.emoji, this.ctx.session.user.id, input.on));
      if (queued) {
        await enqueue(
          tx,
          'comment.react',
          { commentId: input.commentId, replyId: input.replyId, emoji: input.emoji, on: input.on },
          `${input.on ? 'React' : 'Remove reaction'} ${input.emoji}`,
        );
      }
    });
    this.changed(ref);
    return this.thread(input.commentId);
  }

  async resolve(commentId: string, resolved: boolean): Promise<CommentView> {
    const c = await getComment(this.ctx.db, commentId);
    if (!c || c.parentId) throw new LocalError('This comment is not on this machine.');
    const ref = { spaceId: c.spaceId, changeRequestId: c.changeRequestId ?? undefined };
    const { queued } = await this.target(ref);
    await this.ctx.db.transaction(async (tx) => {
      await setResolved(tx, c.id, resolved);
      if (queued) await enqueue(tx, 'comment.resolve', { commentId: c.id, resolved }, resolved ? 'Resolve a comment' : 'Reopen a comment');
    });
    await this.ctx.branches.with(ref, async (branch) => {
      if (setCommentAnchorsResolved(branch.doc, [c.id, c.remoteId ?? c.id], resolved)) await branch.saved();
    });
    this.changed(ref);
    return this.thread(c.id);
  }
}
