import { IdSchema } from '@quire/shared';
import { z } from 'zod';

export const OrgParams = z.object({ organizationId: IdSchema });
export const OrgUserParams = OrgParams.extend({ userId: IdSchema });
export const TeamParams = OrgParams.extend({ teamId: IdSchema });
export const TeamUserParams = TeamParams.extend({ userId: IdSchema });
export const CollectionParams = z.object({ collectionId: IdSchema });
export const SpaceParams = z.object({ spaceId: IdSchema });
