import { badRequest, notFound } from '@quire/shared/domainErrors';
import type { CreateSectionBody, MoveSectionBody, UpdateSectionBody } from '@quire/shared/schemas/siteStructure';
import type { z } from 'zod';
import { conditionError } from './expression';
import { positionAmong, positionAtEnd } from './placement';
import { createSection, moveIntoGroup, removeSection, requireGroup, requireSection } from './structure';
import { newSpaceTitle, spaceForNewContent } from './newSpace';
import type { OrgAccess } from '../access/callerAccess';
import type { Db } from '../../store/db';
import { type SiteRow, touchSite } from '../../store/sites';
import { getSection, getSiteSpace, type SectionRow, sectionSiblings, takenPaths, updateSection } from '../../store/sitesStructure';

/** A condition from a body, checked for syntax: 400 naming the field when it does not parse. */
export function checkCondition(condition: string | null | undefined) {
  if (!condition) return;
  const problem = conditionError(condition);
  if (problem) throw badRequest(`Invalid body field "condition": ${problem}.`);
}

/**
 * Adds a section showing an existing space or a new one (made in the same transaction, so a
 * refused or failed call leaves no space behind). An existing space lends its title when
 * none is given.
 */
export async function addSection(db: Db, site: SiteRow, access: OrgAccess, userId: string, b: CreateSectionBody): Promise<SectionRow> {
  const source = await spaceForNewContent(db, site.org_id, access, userId, b);
  const group = b.siteSectionGroupId ? await requireGroup(db, site.id, b.siteSectionGroupId) : undefined;
  const title = source.existing ? (b.title ?? source.existing.title) : newSpaceTitle(b.title, b.template);
  return db.transaction(async (tx) => {
    const space = await source.make(tx, title);
    return createSection(tx, site, { title, icon: b.icon ?? undefined, space, groupId: group?.id ?? null });
  });
}

const INVALID_MOVE = 'Invalid body field "position": invalid move site section position.';

/**
 * Changes a section of a site: its path stays unique in the site, its default site space is
 * one of its own, and a new group is one of the site's. Every check runs before anything is
 * written.
 */
export async function changeSection(db: Db, site: SiteRow, sectionId: string, b: UpdateSectionBody): Promise<void> {
  const section = await requireSection(db, site.id, sectionId);
  checkCondition(b.condition);
  if (b.path && b.path !== section.path && (await takenPaths(db, 'site_sections', site.id)).has(b.path)) {
    throw badRequest('Invalid body field "path": already used by another section of the site.');
  }
  if (b.defaultSiteSpace) {
    const ss = await getSiteSpace(db, site.id, b.defaultSiteSpace);
    if (!ss || ss.section_id !== section.id) throw notFound('site space');
  }
  const group = b.siteSectionGroupId ? await requireGroup(db, site.id, b.siteSectionGroupId) : undefined;
  await db.transaction(async (tx) => {
    await updateSection(tx, section.id, b);
    if (b.siteSectionGroupId !== undefined) {
      await moveIntoGroup(tx, site.id, { kind: 'section', id: section.id, current: section.group_id }, group?.id ?? null);
    }
    await touchSite(tx, site.id);
  });
}

/** Moves a section among its siblings; without a position it goes last. */
export async function moveSection(db: Db, site: SiteRow, sectionId: string, { position }: z.output<typeof MoveSectionBody>): Promise<void> {
  const section = await requireSection(db, site.id, sectionId);
  const anchor = (a: { siteSection: string } | undefined) => (a ? { kind: 'section' as const, id: a.siteSection } : undefined);
  await db.transaction(async (tx) => {
    const siblings = await sectionSiblings(tx, site.id, section.group_id);
    const key = position
      ? positionAmong(siblings, section.id, { before: anchor(position.before), after: anchor(position.after) }, INVALID_MOVE)
      : positionAtEnd(siblings.filter((s) => s.id !== section.id));
    await updateSection(tx, section.id, { position: key });
    await touchSite(tx, site.id);
  });
}

/** Removes a section with what it holds (a section already gone changes nothing). */
export async function deleteSection(db: Db, site: SiteRow, sectionId: string): Promise<void> {
  const section = await getSection(db, site.id, sectionId);
  if (section) await db.transaction((tx) => removeSection(tx, site, section));
}
