import { notFound } from '@quire/shared/domainErrors';
import type { Queryable } from '../../store/db';
import { type SiteRow, touchSite, updateSite } from '../../store/sites';
import {
  deleteSection,
  deleteSiteSpace,
  getSection,
  getSectionGroup,
  type SectionGroupRow,
  insertSection,
  insertSiteSpace,
  type SectionRow,
  type SiteSpaceRow,
  sectionSiblings,
  sectionsOfSite,
  siteSpaceSiblings,
  takenPaths,
  updateSection,
  updateSectionGroup,
} from '../../store/sitesStructure';
import { positionAtEnd } from './placement';

/**
 * Rules of a site's structure that span rows: where a new site space goes, which section
 * and site space are the defaults, and what a delete leaves behind. Every function runs in
 * the caller's transaction.
 */

/** A URL segment from a title: `Getting Started!` → `getting-started`. */
export function slugify(title: string, fallback: string): string {
  const s = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return s || fallback;
}

export function uniquePath(wanted: string, taken: Set<string>): string {
  if (!taken.has(wanted)) return wanted;
  for (let i = 2; ; i++) if (!taken.has(`${wanted}-${i}`)) return `${wanted}-${i}`;
}

/**
 * Adds a space to a section (or the root of a site without sections); the first one becomes
 * the default. `title` is the site space's own title, when it has one.
 */
export async function addSiteSpace(
  db: Queryable,
  site: SiteRow,
  space: { id: string; title: string },
  sectionId: string | null,
  title?: string,
): Promise<SiteSpaceRow> {
  const path = uniquePath(slugify(title ?? space.title, 'space'), await takenPaths(db, 'site_spaces', site.id, sectionId));
  const siblings = await siteSpaceSiblings(db, site.id, sectionId);
  const row = await insertSiteSpace(db, {
    siteId: site.id,
    sectionId,
    spaceId: space.id,
    path,
    position: positionAtEnd(siblings),
    title,
  });
  if (siblings.length === 0) {
    if (sectionId) await updateSection(db, sectionId, { defaultSiteSpace: row.id });
    else await updateSite(db, site.id, { defaultSiteSpace: row.id });
  }
  await touchSite(db, site.id);
  return row;
}

/**
 * Creates a section. The first section of a site that still holds site spaces at its root
 * first gathers them into a default section of their own, so no published content is lost
 * when a site starts using sections.
 */
export async function createSection(
  db: Queryable,
  site: SiteRow,
  f: { title: string; icon?: string; space: { id: string; title: string }; groupId?: string | null },
): Promise<SectionRow> {
  const existing = await sectionsOfSite(db, site.id);
  if (existing.length === 0) {
    const rootSpaces = await siteSpaceSiblings(db, site.id, null);
    if (rootSpaces.length > 0) {
      const first = await insertSection(db, {
        siteId: site.id,
        groupId: null,
        title: site.title,
        path: slugify(site.title, 'docs'),
        position: positionAtEnd([]),
      });
      await db.query('UPDATE site_spaces SET section_id = $2 WHERE site_id = $1 AND section_id IS NULL', [site.id, first.id]);
      await updateSection(db, first.id, { defaultSiteSpace: site.default_site_space_id ?? rootSpaces[0]?.id });
      await updateSite(db, site.id, { defaultSiteSection: first.id });
    }
  }
  const path = uniquePath(slugify(f.title, 'section'), await takenPaths(db, 'site_sections', site.id));
  const groupId = f.groupId ?? null;
  const section = await insertSection(db, {
    siteId: site.id,
    groupId,
    title: f.title,
    icon: f.icon,
    path,
    position: positionAtEnd(await sectionSiblings(db, site.id, groupId)),
  });
  const current = await db.query<{ default_section_id: string | null }>('SELECT default_section_id FROM sites WHERE id = $1', [site.id]);
  if (!current[0]?.default_section_id) await updateSite(db, site.id, { defaultSiteSection: section.id });
  await addSiteSpace(db, site, f.space, section.id);
  return (await getSection(db, site.id, section.id)) as SectionRow;
}

/** Removes a site space; when it was a default, the next one in order takes its place. */
export async function removeSiteSpace(db: Queryable, site: SiteRow, ss: SiteSpaceRow) {
  await deleteSiteSpace(db, ss.id);
  const next = (await siteSpaceSiblings(db, site.id, ss.section_id))[0]?.id ?? null;
  if (ss.section_id) {
    await db.query('UPDATE site_sections SET default_site_space_id = $2 WHERE id = $1 AND default_site_space_id = $3', [
      ss.section_id,
      next,
      ss.id,
    ]);
  } else {
    await db.query('UPDATE sites SET default_site_space_id = $2 WHERE id = $1 AND default_site_space_id = $3', [site.id, next, ss.id]);
  }
  await touchSite(db, site.id);
}

/** Removes a section and its site spaces; the next section becomes the default if it was. */
export async function removeSection(db: Queryable, site: SiteRow, section: SectionRow) {
  await deleteSection(db, section.id);
  const next = (await sectionsOfSite(db, site.id))[0]?.id ?? null;
  await db.query('UPDATE sites SET default_section_id = $2 WHERE id = $1 AND default_section_id = $3', [site.id, next, section.id]);
  await touchSite(db, site.id);
}

/** Removes a group; what it held moves up to the group's parent, after its current items. */
export async function removeSectionGroup(db: Queryable, siteId: string, group: { id: string; parent_id: string | null }) {
  const children = await sectionSiblings(db, siteId, group.id);
  const parentSiblings = (await sectionSiblings(db, siteId, group.parent_id)).filter((s) => s.id !== group.id);
  for (const child of children) {
    const position = positionAtEnd(parentSiblings);
    parentSiblings.push({ ...child, position });
    if (child.kind === 'section') await updateSection(db, child.id, { groupId: group.parent_id, position });
    else {
      await db.query('UPDATE site_section_groups SET parent_id = $2 WHERE id = $1', [child.id, group.parent_id]);
      await updateSectionGroup(db, child.id, { position });
    }
  }
  await db.query('DELETE FROM site_section_groups WHERE id = $1', [group.id]);
  await touchSite(db, siteId);
}

/**
 * Puts a section or group last in another container (a group, or the site's root with
 * null); nothing changes when it is already there.
 */
export async function moveIntoGroup(
  db: Queryable,
  siteId: string,
  item: { kind: 'section' | 'group'; id: string; current: string | null },
  groupId: string | null,
) {
  if (item.current === groupId) return;
  const position = positionAtEnd(await sectionSiblings(db, siteId, groupId));
  if (item.kind === 'section') await updateSection(db, item.id, { groupId, position });
  else await updateSectionGroup(db, item.id, { parentId: groupId, position });
  await touchSite(db, siteId);
}

/** A section group of the site by id, or the 404 a caller gets for an unknown one. */
export async function requireGroup(db: Queryable, siteId: string, id: string): Promise<SectionGroupRow> {
  const g = await getSectionGroup(db, siteId, id);
  if (!g) throw notFound('site section group');
  return g;
}

/** Whether `groupId` is `ancestorId` or nested (at any depth) inside it. */
export async function isWithinGroup(db: Queryable, siteId: string, groupId: string, ancestorId: string): Promise<boolean> {
  const seen = new Set<string>();
  for (let at: string | null = groupId; at && !seen.has(at);) {
    if (at === ancestorId) return true;
    seen.add(at);
    at = (await getSectionGroup(db, siteId, at))?.parent_id ?? null;
  }
  return false;
}

/** A section of the site by id, or the 404 a caller gets for an unknown one. */
export async function requireSection(db: Queryable, siteId: string, id: string): Promise<SectionRow> {
  const s = await getSection(db, siteId, id);
  if (!s) throw notFound('site section');
  return s;
}
