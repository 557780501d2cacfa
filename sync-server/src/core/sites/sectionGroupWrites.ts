import { badRequest } from '@quire/shared/domainErrors';
import type { CreateSectionGroupBody, MoveSectionGroupBody, UpdateSectionGroupBody } from '@quire/shared/schemas/siteStructure';
import type { z } from 'zod';
import { positionAmong, positionAtEnd } from './placement';
import { isWithinGroup, moveIntoGroup, removeSectionGroup, requireGroup, requireSection } from './structure';
import type { Db } from '../../store/db';
import { type SiteRow, touchSite } from '../../store/sites';
import {
  getSection,
  getSectionGroup,
  insertSectionGroup,
  type SectionGroupRow,
  type SectionRow,
  type Sibling,
  sectionSiblings,
  updateSection,
  updateSectionGroup,
} from '../../store/sitesStructure';

const INVALID_MOVE = 'Invalid body field "position": invalid move site section group position.';

/** Adds a group (last among its siblings) holding the sections named, in the order named. */
export async function createSectionGroup(db: Db, site: SiteRow, b: z.output<typeof CreateSectionGroupBody>): Promise<SectionGroupRow> {
  const parent = b.parent ? await requireGroup(db, site.id, b.parent) : undefined;
  const sections: SectionRow[] = [];
  for (const id of new Set(b.sections ?? [])) sections.push(await requireSection(db, site.id, id));
  return db.transaction(async (tx) => {
    const siblings = await sectionSiblings(tx, site.id, parent?.id ?? null);
    const created = await insertSectionGroup(tx, {
      siteId: site.id,
      parentId: parent?.id ?? null,
      title: b.title,
      icon: b.icon,
      position: positionAtEnd(siblings),
    });
    const inside: Sibling[] = [];
    for (const s of sections) {
      const position = positionAtEnd(inside);
      inside.push({ kind: 'section', id: s.id, position, seq: s.seq });
      await updateSection(tx, s.id, { groupId: created.id, position });
    }
    await touchSite(tx, site.id);
    return created;
  });
}

/** Removes a group with what it holds (a group already gone changes nothing). */
export async function deleteSectionGroup(db: Db, site: SiteRow, groupId: string): Promise<void> {
  const group = await getSectionGroup(db, site.id, groupId);
  if (group) await db.transaction((tx) => removeSectionGroup(tx, site.id, group));
}

/** Changes a group; a new parent is never the group itself or one inside it. */
export async function changeSectionGroup(
  db: Db,
  site: SiteRow,
  groupId: string,
  b: z.output<typeof UpdateSectionGroupBody>,
): Promise<SectionGroupRow> {
  const group = await requireGroup(db, site.id, groupId);
  const parent = b.parentSectionGroupId ? await requireGroup(db, site.id, b.parentSectionGroupId) : undefined;
  if (parent && (await isWithinGroup(db, site.id, parent.id, group.id))) {
    throw badRequest('Invalid body field "parentSectionGroupId": a group cannot go inside itself or one of its own groups.');
  }
  await db.transaction(async (tx) => {
    await updateSectionGroup(tx, group.id, { title: b.title, icon: b.icon });
    if (b.parentSectionGroupId !== undefined) {
      await moveIntoGroup(tx, site.id, { kind: 'group', id: group.id, current: group.parent_id }, parent?.id ?? null);
    }
    await touchSite(tx, site.id);
  });
  return group;
}

/** Puts a section at the end of a group (a section already there stays where it is). */
export async function addSectionToGroup(db: Db, site: SiteRow, groupId: string, sectionId: string): Promise<SectionGroupRow> {
  const group = await requireGroup(db, site.id, groupId);
  const section = await requireSection(db, site.id, sectionId);
  if (section.group_id !== group.id) {
    await db.transaction(async (tx) => {
      const position = positionAtEnd(await sectionSiblings(tx, site.id, group.id));
      await updateSection(tx, section.id, { groupId: group.id, position });
      await touchSite(tx, site.id);
    });
  }
  return group;
}

/** Takes a section out of a group (one not in it changes nothing). */
export async function removeSectionFromGroup(db: Db, site: SiteRow, groupId: string, sectionId: string): Promise<void> {
  const group = await getSectionGroup(db, site.id, groupId);
  const section = await getSection(db, site.id, sectionId);
  if (!group || section?.group_id !== group.id) return;
  await db.transaction(async (tx) => {
    // The section leaves for the group's parent, right after the group.
    const siblings = await sectionSiblings(tx, site.id, group.parent_id);
    const position = positionAmong(siblings, section.id, { after: { kind: 'group', id: group.id } }, INVALID_MOVE);
    await updateSection(tx, section.id, { groupId: group.parent_id, position });
    await touchSite(tx, site.id);
  });
}

/** Moves a group among its siblings (sections and groups); without a position it goes last. */
export async function moveSectionGroup(
  db: Db,
  site: SiteRow,
  groupId: string,
  { position }: z.output<typeof MoveSectionGroupBody>,
): Promise<SectionGroupRow> {
  const group = await requireGroup(db, site.id, groupId);
  const anchor = (a: { type: 'site-section' | 'site-section-group'; id: string } | undefined) =>
    a ? { kind: a.type === 'site-section' ? ('section' as const) : ('group' as const), id: a.id } : undefined;
  await db.transaction(async (tx) => {
    const siblings = await sectionSiblings(tx, site.id, group.parent_id);
    const key = position
      ? positionAmong(siblings, group.id, { before: anchor(position.before), after: anchor(position.after) }, INVALID_MOVE)
      : positionAtEnd(siblings.filter((s) => s.id !== group.id));
    await updateSectionGroup(tx, group.id, { position: key });
    await touchSite(tx, site.id);
  });
  return group;
}
