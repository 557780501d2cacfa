import { badRequest, notFound } from '@quire/shared/domainErrors';
import type { CreateSiteSpaceBody, MoveSiteSpaceBody, UpdateSiteSpaceBody } from '@quire/shared/schemas/siteStructure';
import type { z } from 'zod';
import type { OrgAccess } from '../access/callerAccess';
import { newSpaceTitle, spaceForNewContent, spaceForSite } from './newSpace';
import { positionAmong, positionAtEnd } from './placement';
import { checkCondition } from './sectionWrites';
import { addSiteSpace, removeSiteSpace, requireSection } from './structure';
import type { Db, Queryable } from '../../store/db';
import { type SiteRow, touchSite } from '../../store/sites';
import {
  getSiteSpace,
  type SiteSpaceRow,
  siteSpaceSiblings,
  spacePublishedIn,
  takenPaths,
  updateSiteSpace,
} from '../../store/sitesStructure';

/** A site space of the site: 404 otherwise, as for any unknown id. */
export async function requireSiteSpace(db: Queryable, siteId: string, id: string): Promise<SiteSpaceRow> {
  const ss = await getSiteSpace(db, siteId, id);
  if (!ss) throw notFound('site space');
  return ss;
}

/**
 * Publishes a space (an existing one, or a new one made in the same transaction) in a section
 * of the site, or its default section, or its root. An existing space is published once per
 * section; it keeps its own title and the site space gets `title`.
 */
export async function createSiteSpace(
  db: Db,
  site: SiteRow,
  access: OrgAccess,
  userId: string,
  b: CreateSiteSpaceBody,
): Promise<SiteSpaceRow> {
  const source = await spaceForNewContent(db, site.org_id, access, userId, b);
  let sectionId: string | null = null;
  if (b.sectionId) sectionId = (await requireSection(db, site.id, b.sectionId)).id;
  else if (site.default_section_id) sectionId = site.default_section_id;
  if (source.existing) {
    if (await spacePublishedIn(db, site.id, sectionId, source.existing.id))
      throw badRequest(`Invalid body field "spaceId": the space is already published in this ${sectionId ? 'section' : 'site'}.`);
  }
  return db.transaction(async (tx) => {
    const space = await source.make(tx, newSpaceTitle(b.title, b.template));
    return addSiteSpace(tx, site, space, sectionId, source.existing ? b.title : undefined);
  });
}

/** Removes a site space (one already gone changes nothing). */
export async function deleteSiteSpace(db: Db, site: SiteRow, siteSpaceId: string): Promise<void> {
  const ss = await getSiteSpace(db, site.id, siteSpaceId);
  if (ss) await db.transaction((tx) => removeSiteSpace(tx, site, ss));
}

/**
 * Changes a site space: its path stays unique among its siblings and a new space is one the
 * caller can see in the organization. Every check runs before anything is written.
 */
export async function changeSiteSpace(
  db: Db,
  site: SiteRow,
  access: OrgAccess,
  siteSpaceId: string,
  b: z.output<typeof UpdateSiteSpaceBody>,
): Promise<void> {
  const ss = await requireSiteSpace(db, site.id, siteSpaceId);
  checkCondition(b.condition);
  if (b.spaceId) await spaceForSite(db, site.org_id, b.spaceId, access);
  if (b.path && b.path !== ss.path && (await takenPaths(db, 'site_spaces', site.id, ss.section_id)).has(b.path)) {
    throw badRequest(`Invalid body field "path": already used by another site space of this ${ss.section_id ? 'section' : 'site'}.`);
  }
  await db.transaction(async (tx) => {
    await updateSiteSpace(tx, ss.id, { path: b.path, condition: b.condition, spaceId: b.spaceId, title: b.title });
    await touchSite(tx, site.id);
  });
}

const INVALID_MOVE = 'Invalid body field "position": invalid move site space position.';

/** Moves a site space among its siblings; without a position it goes last. */
export async function moveSiteSpace(
  db: Db,
  site: SiteRow,
  siteSpaceId: string,
  { position }: z.output<typeof MoveSiteSpaceBody>,
): Promise<void> {
  const ss = await requireSiteSpace(db, site.id, siteSpaceId);
  const anchor = (a: { siteSpace: string } | undefined) => (a ? { kind: 'site-space' as const, id: a.siteSpace } : undefined);
  await db.transaction(async (tx) => {
    const siblings = await siteSpaceSiblings(tx, site.id, ss.section_id);
    const key = position
      ? positionAmong(siblings, ss.id, { before: anchor(position.before), after: anchor(position.after) }, INVALID_MOVE)
      : positionAtEnd(siblings.filter((s) => s.id !== ss.id));
    await updateSiteSpace(tx, ss.id, { position: key });
    await touchSite(tx, site.id);
  });
}
