import type { Translation } from '@quire/shared/schemas/translation';
import { orgSeenBy } from '../access/resourceAccess';
import type { CommandContext } from '../platform/deps';
import { visibleSpaceIds } from '../spaces/visible';
import { envelope } from '../views/listing';
import { presentTranslation } from '../views/translation';
import { requireTranslation } from './rules';
import type { PageRequest } from '../../store/paginate';
import * as store from '../../store/translations';

/* The reads of the `/v1` translation operations. */

/** The translations whose source the caller sees (an admin sees every space). */
export async function listTranslations(ctx: CommandContext, input: { organizationId: string; page: PageRequest }) {
  const { db } = ctx.deps;
  const { access } = await orgSeenBy(db, ctx.access, input.organizationId);
  const visible = access.isAdmin ? undefined : await visibleSpaceIds(db, access, { orgId: access.orgId });
  const page = await store.listTranslations(db, access.orgId, visible, input.page);
  return envelope(page, (t) => presentTranslation(t, access, ctx.baseUrl));
}

export async function getTranslation(ctx: CommandContext, input: { organizationId: string; translationId: string }): Promise<Translation> {
  const { db } = ctx.deps;
  const { access } = await orgSeenBy(db, ctx.access, input.organizationId);
  return presentTranslation(await requireTranslation(db, access, input.translationId, false), access, ctx.baseUrl);
}
