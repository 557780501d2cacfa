import type { Role } from '@quire/shared';
import { forbidden, notFound } from '@quire/shared/domainErrors';
import type { Queryable } from '../../store/db';
import { getSite, type SiteRow } from '../../store/sites';
import type { Access } from '../access/callerAccess';
import { atLeast } from '../access/roles';

/**
 * Who may do what with a site's insights. What readers did is the team's to see and
 * feed: members with the edit role in the organization or more read and write them;
 * members below it are refused; anyone outside the organization is told nothing exists.
 */
export type InsightsAction = 'read' | 'write';

/** The organization role each action needs. */
export const INSIGHTS_ABILITIES: Record<InsightsAction, Role> = { read: 'edit', write: 'edit' };

export type Decision = 'allow' | 'forbidden' | 'not-found';

/** The decision for a caller's standing in the site's organization. */
export function insightsDecision(standing: { isMember: boolean; orgRole: Role | null }, action: InsightsAction): Decision {
  if (!standing.isMember) return 'not-found';
  return atLeast(standing.orgRole, INSIGHTS_ABILITIES[action]) ? 'allow' : 'forbidden';
}

/**
 * The site whose insights the caller may read or write: 404 for a caller outside its
 * organization or an unknown site, 403 for a member without the role.
 */
export async function authorizeInsights(
  db: Queryable,
  access: Access,
  orgId: string,
  siteId: string,
  action: InsightsAction,
): Promise<SiteRow> {
  const standing = await access.org(orgId);
  const decision = insightsDecision(standing, action);
  if (decision === 'not-found') throw notFound('organization');
  const site = await getSite(db, orgId, siteId);
  if (!site) throw notFound('site');
  if (decision === 'forbidden') throw forbidden(`Site insights need the ${INSIGHTS_ABILITIES[action]} role in the organization.`);
  return site;
}
