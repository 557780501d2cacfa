import { notFound } from '@quire/shared/domainErrors';
import type { ChangeRequestRow } from '../../store/changeRequests';
import type { Queryable } from '../../store/db';
import { type OrgRow, getOrg } from '../../store/organizations';
import { type SpaceCounts, spaceCounts } from '../../store/spaceCounts';
import type { SpaceRow } from '../../store/spaces';
import type { Materialized } from './materialize';
import { contentAtRevision } from './revisions';

/** What the links and backlinks of a branch are read against: where they are, and the content. */
export interface LinkContext {
  org: OrgRow;
  counts: SpaceCounts | undefined;
  content: Materialized;
  /**
   * On a change request's branch, main's content it last took in: a broken link that was
   * not written, or not broken, there is one the change request broke.
   */
  mainBase?: { revisionId: string; content: Materialized };
}

/** The organization, counters and content of a branch at `revisionId` (a change request's when `cr` is given). */
export async function linkContextOf(
  db: Queryable,
  space: SpaceRow,
  revisionId: string,
  cr: ChangeRequestRow | undefined,
): Promise<LinkContext> {
  const org = await getOrg(db, space.org_id);
  if (!org) throw notFound('organization');
  const counts = await spaceCounts(db, [space.id]);
  const content = await contentAtRevision(db, revisionId);
  return {
    org,
    counts: counts.get(space.id),
    content,
    mainBase: cr
      ? { revisionId: cr.revision_merged_ancestor, content: await contentAtRevision(db, cr.revision_merged_ancestor) }
      : undefined,
  };
}
