import type { ReviewPanel } from '../common/ipc';
import type { LocalNode } from './LocalNode';
import { LocalError } from './LocalNode';
import { RemoteError, UnreachableError } from './ServerClient';
import { getSpace } from './store/catalog';
import { getChangeRequest } from './store/changeRequests';

/**
 * Reviews of a change request: who is asked to review, who approved or asked for changes,
 * and giving a review. They are the server's (approvals gate a merge there), so they
 * work online only and say so offline; nothing about them is queued.
 */

interface RemoteUser {
  id: string;
  displayName?: string;
  email?: string;
}

interface RemoteReview {
  id: string;
  status: 'approved' | 'changes-requested';
  reviewer: RemoteUser;
  outdated: boolean;
  createdAt: string;
  comment?: { body?: { markdown?: string } };
}

interface RemoteRequested {
  user: RemoteUser;
  review?: 'approved' | 'changes-requested';
}

interface RemoteMember {
  user: RemoteUser;
  role: string | null;
}

/** The server paths of a change request, or why there are none. */
async function paths(node: LocalNode, changeRequestId: string) {
  const cr = await getChangeRequest(node.db, changeRequestId);
  if (!cr) throw new LocalError('This change request is not on this machine.');
  const space = await getSpace(node.db, cr.spaceId);
  if (!space?.remoteId || !cr.remoteId) throw new LocalError('Reviews start once the change request is on the server.');
  const client = node.server;
  if (!client) throw new LocalError('Reviews need the server: go online to see and give them.');
  return { client, cr: `/v1/spaces/${space.remoteId}/change-requests/${cr.remoteId}`, orgId: space.orgId };
}

async function online<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof UnreachableError) throw new LocalError('The server cannot be reached: reviews need it.');
    if (err instanceof RemoteError) throw new LocalError(err.message);
    throw err;
  }
}

const user = (u: RemoteUser) => ({ id: u.id, displayName: u.displayName ?? u.email ?? u.id });

export async function reviewPanel(node: LocalNode, changeRequestId: string): Promise<ReviewPanel> {
  const { client, cr, orgId } = await paths(node, changeRequestId);
  return online(async () => {
    const [reviews, requested, members] = await Promise.all([
      client.listAll<RemoteReview>(`${cr}/reviews`),
      client.listAll<RemoteRequested>(`${cr}/requested-reviewers`),
      orgId ? client.listAll<RemoteMember>(`/v1/orgs/${orgId}/members`).catch(() => [] as RemoteMember[]) : [],
    ]);
    return {
      me: node.currentUser.id,
      reviews: reviews.map((r) => ({
        id: r.id,
        status: r.status,
        reviewer: user(r.reviewer),
        outdated: r.outdated,
        createdAt: r.createdAt,
        comment: r.comment?.body?.markdown ?? null,
      })),
      requested: requested.map((r) => ({ user: user(r.user), review: r.review ?? null })),
      candidates: members.map((m) => user(m.user)),
    };
  });
}

export async function submitReview(
  node: LocalNode,
  changeRequestId: string,
  status: 'approved' | 'changes-requested',
  comment: string | undefined,
): Promise<ReviewPanel> {
  const { client, cr } = await paths(node, changeRequestId);
  await online(() => client.request('POST', `${cr}/reviews`, { body: { status, ...(comment ? { comment: { markdown: comment } } : {}) } }));
  return reviewPanel(node, changeRequestId);
}

export async function requestReviewer(node: LocalNode, changeRequestId: string, userId: string): Promise<ReviewPanel> {
  const { client, cr } = await paths(node, changeRequestId);
  await online(() => client.request('POST', `${cr}/requested-reviewers`, { body: { users: [userId] } }));
  return reviewPanel(node, changeRequestId);
}

export async function withdrawReviewer(node: LocalNode, changeRequestId: string, userId: string): Promise<ReviewPanel> {
  const { client, cr } = await paths(node, changeRequestId);
  await online(() => client.request('DELETE', `${cr}/requested-reviewers/${encodeURIComponent(userId)}`));
  return reviewPanel(node, changeRequestId);
}
