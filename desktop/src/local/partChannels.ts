import type { z } from 'zod';
import type { IpcChannel, IpcContract, IpcOutput } from '../common/ipc';
import type { LocalNode } from './LocalNode';
import { requestReviewer, reviewPanel, submitReview, withdrawReviewer } from './reviews';

/** A channel's input once the contract parsed it. */
export type ChannelInput<C extends IpcChannel> = z.output<IpcContract[C]['input']>;

/**
 * Channels a window's session answers itself (`IpcSession`): the branches that window
 * holds and the cursors it published are its own, and the bridge's liveness ping.
 */
export type SessionChannel = 'doc.open' | 'doc.update' | 'doc.close' | 'awareness.update' | 'backend.ping';

/** Every other channel is one call of one part of the node. */
export type PartChannel = Exclude<IpcChannel, SessionChannel>;

/**
 * From each channel to the part method that answers it, typed from the contract: a channel
 * missing here (or in `SessionChannel`), a name the contract does not have, or an input or
 * output that does not match is a compile error.
 */
export type PartChannels = { [C in PartChannel]: (node: LocalNode, input: ChannelInput<C>) => Promise<IpcOutput<C>> };

export const partChannels: PartChannels = {
  'session.get': (n) => n.session.state(),
  'session.connect': (n, { url, token }) => n.session.connect(url, token),
  'session.browserSignIn': (n, { url }) => n.session.startBrowserSignIn(url),
  'session.browserSignInDone': (n) => n.session.awaitBrowserSignIn(),
  'session.browserSignInCancel': (n) => n.session.cancelBrowserSignIn(),
  'session.useLocal': (n) => n.session.useLocal(),
  'session.signOut': (n) => n.session.signOut(),
  'sync.status': (n) => n.session.status(),
  'sync.setWorkOffline': (n, { offline }) => n.session.setWorkOffline(offline),
  'catalog.get': (n) => n.catalog.get(),
  'catalog.refresh': (n) => n.catalog.refresh(),
  'spaces.create': (n, input) => n.catalog.createSpace(input),
  'spaces.rename': (n, input) => n.catalog.renameSpace(input),
  'spaces.publish': (n, { spaceId, organizationId }) => n.catalog.publishSpace(spaceId, organizationId),
  'search.space': (n, { branch, query }) => n.branches.search(branch, query),
  'pages.computed': (n, { branch, pageId }) => n.branches.computedPage(branch, pageId),
  'pages.pdf': (n, { branch, pageId }) => n.branches.pdfLink(branch, pageId),
  'files.put': async (n, { branch, name, contentType, data, width, height }) => {
    const file = await n.files.put(branch, {
      name,
      contentType,
      bytes: new Uint8Array(Buffer.from(data, 'base64')),
      dimensions: width && height ? { width, height } : undefined,
    });
    return { id: file.id, name: file.name, contentType: file.contentType, size: file.size, src: file.src };
  },
  'files.read': async (n, { branch, fileId }) => {
    const file = await n.files.read(branch, fileId);
    return file && { contentType: file.contentType, data: Buffer.from(file.bytes).toString('base64') };
  },
  'files.migratePage': async (n, { branch, pageId }) => ({ moved: await n.files.migratePage(branch, pageId) }),
  'members.list': (n, { spaceId }) => n.members.list(spaceId),
  'git.state': (n, { spaceId }) => n.git.state(spaceId),
  'history.list': (n, { branch, pageId }) => n.history.list(branch, pageId),
  'history.page': (n, { branch, pageId, revisionId }) => n.history.page(branch, pageId, revisionId),
  'history.restore': async (n, { branch, pageId, revisionId }) => {
    await n.history.restore(branch, pageId, revisionId);
    return {};
  },
  // A window listing change requests wants the server's latest, not what was last fetched.
  'changeRequests.list': (n, { spaceId }) => n.changeRequests.refresh(spaceId),
  'changeRequests.create': (n, { spaceId, subject }) => n.changeRequests.create(spaceId, subject),
  'changeRequests.rename': (n, { changeRequestId, subject }) => n.changeRequests.rename(changeRequestId, subject),
  'changeRequests.merge': (n, { changeRequestId }) => n.changeRequests.merge(changeRequestId),
  'changeRequests.updateFromMain': (n, { changeRequestId }) => n.changeRequests.updateFromMain(changeRequestId),
  'changeRequests.diff': (n, { changeRequestId }) => n.changeRequests.diff(changeRequestId),
  'changeRequests.base': (n, { changeRequestId }) => n.changeRequests.base(changeRequestId),
  'reviews.get': (n, { changeRequestId }) => reviewPanel(n, changeRequestId),
  'reviews.submit': (n, { changeRequestId, status, comment }) => submitReview(n, changeRequestId, status, comment?.trim() || undefined),
  'reviews.request': (n, { changeRequestId, userId }) => requestReviewer(n, changeRequestId, userId),
  'reviews.withdraw': (n, { changeRequestId, userId }) => withdrawReviewer(n, changeRequestId, userId),
  // What is stored answers at once; the server's latest arrives as a `comments.changed` event.
  'comments.list': async (n, { branch, pageId }) => {
    void n.comments.refresh(branch).catch(() => {});
    return n.comments.list(branch, pageId);
  },
  'comments.create': (n, { branch, pageId, markdown, anchor }) => n.comments.post(branch, pageId, markdown, anchor),
  'comments.reply': (n, { commentId, markdown }) => n.comments.reply(commentId, markdown),
  'comments.react': (n, input) => n.comments.react(input),
  'comments.resolve': (n, { commentId, resolved }) => n.comments.resolve(commentId, resolved),
  'insights.get': (n, input) => n.insights.get(input),
  'insights.createRedirect': (n, input) => n.insights.createRedirect(input),
  'outbox.list': (n) => n.queue.entries(),
  'outbox.retry': (n, { seq }) => n.queue.retry(seq),
  'outbox.discard': (n, { seq }) => n.queue.discard(seq),
};
