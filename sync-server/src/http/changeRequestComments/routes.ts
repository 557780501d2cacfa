import { IdSchema } from '@quire/shared';
import { commentRoutes } from '../comments/commentRoutes';
import { SpaceParams } from '../params';

export const routes = commentRoutes({
  tag: 'Change request comments',
  base: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments',
  params: SpaceParams.extend({ changeRequestId: IdSchema }),
  on: 'a change request',
});
