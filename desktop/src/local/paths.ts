import type { SpaceRow } from './store/catalog';
import type { ChangeRequestRow } from './store/changeRequests';

/** REST path of a branch's comments, once the server knows the space (and change request). */
export function commentsPath(space: SpaceRow, cr?: ChangeRequestRow): string | undefined {
  if (!space.remoteId) return undefined;
  if (!cr) return `/v1/spaces/${space.remoteId}/comments`;
  if (!cr.remoteId) return undefined;
  return `/v1/spaces/${space.remoteId}/change-requests/${cr.remoteId}/comments`;
}
