import type { NodeJSON } from '@quire/shared/content/json';
import { computedPageBody } from '../core/openapi/index';
import type { Queryable } from '../store/db';

/**
 * Pages of type `builtin:openapi` in a published site: readers see the operations of the
 * page's spec (its latest successful processing), not the page's stored body. A spec is
 * organization content, so the organization comes from the revision's space.
 *
 * Not cached with stored bodies: a spec is processed again independently of the space's
 * revisions (processing bumps the organization's site versions, so rendered pages follow).
 */
export async function openapiPageBody(db: Queryable, revisionId: string, computed: unknown): Promise<NodeJSON | undefined> {
  if (!computed) return undefined;
  const rows = await db.query<{ org_id: string }>('SELECT s.org_id FROM revisions r JOIN spaces s ON s.id = r.space_id WHERE r.id = $1', [
    revisionId,
  ]);
  const orgId = rows[0]?.org_id;
  return orgId ? computedPageBody(db, orgId, computed) : undefined;
}
