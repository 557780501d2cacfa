import { renameAnchoredComment } from '@quire/shared/content/commentAnchors';
import { type BranchRef, branchKey } from '../common/ipc';
import type { BranchDoc } from './BranchDoc';
import { type Applied, type OutboxPerformer, RefusedError, RetryLaterError } from './Outbox';
import { commentsPath } from './paths';
import { RemoteError, type ServerClient, UnreachableError } from './ServerClient';
import { type SpaceRow, getSpace, setSpaceRemote } from './store/catalog';
import { type ChangeRequestRow, getChangeRequest, setChangeRequestRemote, updateChangeRequestLocal } from './store/changeRequests';
import { type CommentRow, getComment, setCommentRemote, setCommentState } from './store/comments';
import type { LocalDb, Queryable } from './store/database';
import { getLocalFile, setLocalFileState } from './store/files';
import type { OutboxRow } from './store/outbox';

/** Tries (with backoff, about a minute in all) before a comment on an unknown page is refused. */
const PAGE_WAIT_ATTEMPTS = 8;

/** What replaying needs of the node: the database, the server, the branches, and a way to tell windows. */
export interface ReplayContext {
  db: LocalDb;
  server(): ServerClient | undefined;
  withBranch<T>(ref: BranchRef, fn: (branch: BranchDoc) => Promise<T> | T): Promise<T>;
  reconnectBranch(ref: BranchRef): Promise<void>;
  pushWaitingBranches(): Promise<void>;
  /** The server has a file's bytes: the branch it was inserted in points its blocks at it. */
  fileUploaded(ref: BranchRef): Promise<void>;
  changed(what: { spaceId?: string; branch?: string; catalog?: boolean }): void;
}

/**
 * How each kind of queued mutation is sent, and what its answer changes locally. Entries
 * carry local ids; the server ids they need are looked up at send time, because an earlier
 * entry (creating the space, the change request, the comment) may have just learnt them.
 */
export function createPerformer(node: ReplayContext): OutboxPerformer {
  const db = () => node.db;

  const client = (): ServerClient => {
    const c = node.server();
    if (!c) throw new UnreachableError('not signed in, or working offline');
    return c;
  };

  const send = <T>(entry: OutboxRow, method: string, path: string, body?: unknown) =>
    client().request<T>(method, path, { body, idempotencyKey: entry.key });

  const remoteSpace = async (spaceId: string): Promise<SpaceRow & { remoteId: string }> => {
    const space = await getSpace(db(), spaceId);
    if (!space) throw new RefusedError('its space was removed from this machine');
    if (!space.remoteId) throw new RefusedError(`the space “${space.title}” is not on the server (its publication did not go through)`);
    return space as SpaceRow & { remoteId: string };
  };

  const remoteChangeRequest = async (id: string): Promise<ChangeRequestRow & { remoteId: string }> => {
    const cr = await getChangeRequest(db(), id);
    if (!cr) throw new RefusedError('its change request was removed from this machine');
    if (!cr.remoteId) throw new RefusedError(`the change request “${cr.subject}” is not on the server (its creation did not go through)`);
    return cr as ChangeRequestRow & { remoteId: string };
  };

  const crPath = async (changeRequestId: string) => {
    const cr = await remoteChangeRequest(changeRequestId);
    const space = await remoteSpace(cr.spaceId);
    return { cr, space, path: `/v1/spaces/${space.remoteId}/change-requests/${cr.remoteId}` };
  };

  const commentOf = async (id: string): Promise<CommentRow> => {
    const c = await getComment(db(), id);
    if (!c) throw new RefusedError('the comment was removed from this machine');
    return c;
  };

  const commentBase = async (c: CommentRow) => {
    const space = await remoteSpace(c.spaceId);
    const cr = c.changeRequestId ? await remoteChangeRequest(c.changeRequestId) : undefined;
    // Both lookups refuse what the server does not have, so the path always exists.
    return commentsPath(space, cr) as string;
  };

  const remoteCommentId = async (id: string) => {
    const c = await commentOf(id);
    if (!c.remoteId) throw new RefusedError('the comment it answers is not on the server (posting it did not go through)');
    return { comment: c, remoteId: c.remoteId };
  };

  /**
   * Makes sure the server holds a branch's edits before a request that reads them (a
   * merge, a comment on a page made offline): the branch connects and completes a sync
   * round-trip first. A branch that cannot sync yet makes the entry wait, not fail.
   */
  const flushBranch = async (ref: { spaceId: string; changeRequestId?: string }) => {
    await node.withBranch(ref, async (branch) => {
      await node.reconnectBranch(ref);
      try {
        await branch.flushToServer(15_000);
      } catch (err) {
        if (branch.connection === 'refused') throw new RefusedError(`the server refused to sync the branch: ${branch.refusal}`);
        throw new UnreachableError(err);
      }
    });
  };

  const nothing: Applied = { apply: async () => {} };

  const perform = async (entry: OutboxRow): Promise<Applied> => {
    const p = entry.payload as Record<string, string | boolean | null | undefined | Record<string, unknown>>;
    switch (entry.kind) {
      case 'space.publish': {
        const spaceId = p.spaceId as string;
        const body: Record<string, unknown> = { title: p.title };
        if (p.emoji) body.emoji = p.emoji;
        const created = await send<{ id: string }>(entry, 'POST', `/v1/orgs/${p.organizationId}/spaces`, body);
        return {
          apply: (tx) => setSpaceRemote(tx, spaceId, created.id, p.organizationId as string),
          after: async () => {
            node.changed({ catalog: true });
            // The branch pushes the whole local state to the new room over sync.
            await node.reconnectBranch({ spaceId });
            void node.pushWaitingBranches();
          },
        };
      }
      case 'space.update': {
        const space = await remoteSpace(p.spaceId as string);
        await send(entry, 'PATCH', `/v1/spaces/${space.remoteId}`, p.body);
        return nothing;
      }
      case 'changeRequest.create': {
        const space = await remoteSpace(p.spaceId as string);
        const created = await send<{ id: string; number?: number; status?: string }>(
          entry,
          'POST',
          `/v1/spaces/${space.remoteId}/change-requests`,
          { subject: p.subject },
        );
        const changeRequestId = p.changeRequestId as string;
        return {
          apply: (tx) =>
            setChangeRequestRemote(tx, changeRequestId, { remoteId: created.id, number: created.number ?? null, status: created.status }),
          after: async () => {
            node.changed({ spaceId: space.id });
            await node.reconnectBranch({ spaceId: space.id, changeRequestId });
            void node.pushWaitingBranches();
          },
        };
      }
      case 'changeRequest.update': {
        const { path } = await crPath(p.changeRequestId as string);
        await send(entry, 'PATCH', path, { subject: p.subject });
        return nothing;
      }
      case 'changeRequest.merge': {
        const { cr, path } = await crPath(p.changeRequestId as string);
        await flushBranch({ spaceId: cr.spaceId, changeRequestId: cr.id });
        await send(entry, 'POST', `${path}/merge`);
        return {
          apply: (tx) => updateChangeRequestLocal(tx, cr.id, { mergeState: 'merged', status: 'merged' }),
          after: () => node.changed({ spaceId: cr.spaceId }),
        };
      }
      case 'changeRequest.updateFromMain': {
        const { cr, path } = await crPath(p.changeRequestId as string);
        await send(entry, 'POST', `${path}/update`);
        return {
          apply: (tx) => updateChangeRequestLocal(tx, cr.id, { outdated: false }),
          after: () => node.changed({ spaceId: cr.spaceId }),
        };
      }
      case 'comment.create': {
        const c = await commentOf(p.commentId as string);
        const base = await commentBase(c);
        // The page may have been made offline: the server must have it before the comment.
        await flushBranch({ spaceId: c.spaceId, changeRequestId: c.changeRequestId ?? undefined }).catch((err) => {
          if (err instanceof RefusedError) throw err;
        });
        const body: Record<string, unknown> = { body: { markdown: c.body } };
        if (c.pageId) body.page = c.pageId;
        const created = await send<{ id: string }>(entry, 'POST', base, body).catch((err) => {
          // The server reads pages from its last revision, cut once edits go quiet: a page
          // made offline shows up there a few seconds after it synced. Wait for it, a while.
          if (err instanceof RemoteError && err.status === 404 && /page/i.test(err.message) && entry.attempts < PAGE_WAIT_ATTEMPTS) {
            throw new RetryLaterError(`the server does not show the page yet (${err.message})`);
          }
          throw err;
        });
        const ref = { spaceId: c.spaceId, changeRequestId: c.changeRequestId ?? undefined };
        return {
          apply: (tx) => setCommentRemote(tx, c.id, created.id),
          after: async () => {
            node.changed({ branch: branchKey(ref) });
            // The passage's mark names the comment as every other client knows it.
            if (!p.anchored) return;
            await node.withBranch(ref, async (branch) => {
              if (renameAnchoredComment(branch.doc, c.id, created.id)) await branch.saved();
            });
          },
        };
      }
      case 'comment.reply': {
        const reply = await commentOf(p.replyId as string);
        const { comment, remoteId } = await remoteCommentId(p.commentId as string);
        const base = await commentBase(comment);
        const created = await send<{ id: string }>(entry, 'POST', `${base}/${remoteId}/replies`, { body: { markdown: reply.body } });
        return {
          apply: (tx) => setCommentRemote(tx, reply.id, created.id),
          after: () =>
            node.changed({
              branch: branchKey({ spaceId: comment.spaceId, changeRequestId: comment.changeRequestId ?? undefined }),
            }),
        };
      }
      case 'comment.react': {
        const { comment, remoteId } = await remoteCommentId(p.commentId as string);
        const base = await commentBase(comment);
        const body = p.on ? { addedReactions: [p.emoji] } : { removedReactions: [p.emoji] };
        if (p.replyId) {
          const reply = await remoteCommentId(p.replyId as string);
          await send(entry, 'PUT', `${base}/${remoteId}/replies/${reply.remoteId}`, body);
        } else {
          await send(entry, 'PUT', `${base}/${remoteId}`, body);
        }
        return nothing;
      }
      case 'comment.resolve': {
        const { comment, remoteId } = await remoteCommentId(p.commentId as string);
        const base = await commentBase(comment);
        await send(entry, 'PUT', `${base}/${remoteId}`, { resolved: p.resolved });
        return nothing;
      }
      case 'file.upload': {
        const file = await getLocalFile(db(), p.fileId as string);
        if (!file) throw new RefusedError('the file was removed from this machine');
        // A change request's editors may not edit main: its files go up through it while it is on the server.
        const cr = p.changeRequestId ? await getChangeRequest(db(), p.changeRequestId as string) : undefined;
        const base = cr?.remoteId ? (await crPath(cr.id)).path : `/v1/spaces/${(await remoteSpace(file.spaceId)).remoteId}`;
        // No idempotency key: the id is the key, and the same bytes under it are answered alike.
        await client().request('PUT', `${base}/content/files/${file.id}?name=${encodeURIComponent(file.name)}`, {
          raw: { bytes: file.bytes, contentType: file.contentType },
          timeoutMs: 120_000,
        });
        return {
          apply: (tx) => setLocalFileState(tx, file.id, 'uploaded'),
          after: () => node.fileUploaded(cr ? { spaceId: file.spaceId, changeRequestId: cr.id } : { spaceId: file.spaceId }),
        };
      }
      default:
        throw new RefusedError(`unknown kind of change “${entry.kind}”`);
    }
  };

  const refused = async (entry: OutboxRow, message: string, tx: Queryable) => {
    const p = entry.payload as Record<string, string | undefined>;
    switch (entry.kind) {
      case 'space.publish': {
        // Back to local: the user can publish elsewhere. What waited on it goes back to local too.
        const spaceId = p.spaceId as string;
        await tx.query("UPDATE spaces SET sync_state = 'local', org_id = NULL WHERE id = $1 AND remote_id IS NULL", [spaceId]);
        await tx.query("UPDATE comments SET sync_state = 'local' WHERE space_id = $1 AND sync_state = 'pending'", [spaceId]);
        await tx.query("UPDATE change_requests SET sync_state = 'local' WHERE space_id = $1 AND sync_state = 'pending'", [spaceId]);
        // Their uploads are dropped below: the files wait here for the next publication.
        await tx.query("UPDATE files SET state = 'local' WHERE space_id = $1 AND state = 'queued'", [spaceId]);
        await tx.query(
          `DELETE FROM outbox WHERE state = 'pending' AND (payload->>'spaceId' = $1
             OR payload->>'commentId' IN (SELECT id FROM comments WHERE space_id = $1)
             OR payload->>'changeRequestId' IN (SELECT id FROM change_requests WHERE space_id = $1))`,
          [spaceId],
        );
        node.changed({ catalog: true });
        break;
      }
      case 'changeRequest.merge':
        await updateChangeRequestLocal(tx, p.changeRequestId as string, { mergeState: 'none' });
        break;
      case 'comment.create':
        await setCommentState(tx, p.commentId as string, 'failed', message);
        break;
      case 'comment.reply':
        await setCommentState(tx, p.replyId as string, 'failed', message);
        break;
      default:
        break;
    }
  };

  return { perform, refused };
}
