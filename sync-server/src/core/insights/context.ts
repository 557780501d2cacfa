import { notFound } from '@quire/shared/domainErrors';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import type { Db } from '../../store/db';
import { siteById } from '../../store/insights';
import type { SiteRow } from '../../store/sites';
import type { Access } from '../access/callerAccess';
import type { CommandContext } from '../platform/deps';
import { authorizeInsights, type InsightsAction } from '../policies/insights';

/** Who acts: an API caller (the policy decides), or the operator at the admin command line (who reads the database anyway). */
export type InsightsActor = { kind: 'caller'; access: Access } | { kind: 'operator' };

/** What every insights command and query is given besides its input. */
export interface InsightsContext {
  deps: { db: Db; config: Config; log?: Logger };
  actor: InsightsActor;
}

/** An API caller's insights context, from the context every front builds. */
export function callerInsights(ctx: CommandContext): InsightsContext {
  return { deps: ctx.deps, actor: { kind: 'caller', access: ctx.access } };
}

/** The site an actor may act on: the policy's answer for a caller; any site for the operator. */
export async function siteFor(
  ctx: InsightsContext,
  where: { organizationId?: string; siteId: string },
  action: InsightsAction,
): Promise<SiteRow> {
  if (ctx.actor.kind === 'caller')
    return authorizeInsights(ctx.deps.db, ctx.actor.access, where.organizationId ?? '', where.siteId, action);
  const site = await siteById(ctx.deps.db, where.siteId);
  if (!site || (where.organizationId && site.org_id !== where.organizationId)) throw notFound('site');
  return site;
}
