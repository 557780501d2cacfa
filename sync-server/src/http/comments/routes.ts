import { SpaceParams } from '../params';
import { commentRoutes } from './commentRoutes';

export const routes = commentRoutes({ tag: 'Space comments', base: '/v1/spaces/{spaceId}/comments', params: SpaceParams, on: 'a space' });
