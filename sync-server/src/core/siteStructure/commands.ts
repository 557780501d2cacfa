import type { CommandContext } from '../platform/deps';
import * as groups from '../sites/sectionGroupWrites';
import * as sections from '../sites/sectionWrites';
import { siteForDelete, siteForWrite } from '../sites/siteAccess';
import * as siteSpaces from '../sites/siteSpaceWrites';
import { presentedSection, presentedSectionGroup, presentedSiteSpace } from './queries';

/*
 * The writes of a site's structure (`/v1` sections, section groups, site spaces), one
 * function each, taking the caller's context and the operation's input: the site's
 * managers (`manageSites`) change them; a delete on a site the caller cannot see, or that
 * is gone, changes nothing. Each answers what it wrote as the caller now sees it.
 */

type SiteRef = { organizationId: string; siteId: string };
type SectionRef = SiteRef & { siteSectionId: string };
type GroupRef = SiteRef & { siteSectionGroupId: string };
type SiteSpaceRef = SiteRef & { siteSpaceId: string };

const writable = (ctx: CommandContext, input: SiteRef) => siteForWrite(ctx.deps.db, ctx.access, input.organizationId, input.siteId);
const deletable = (ctx: CommandContext, input: SiteRef) => siteForDelete(ctx.deps.db, ctx.access, input.organizationId, input.siteId);

export async function createSection(ctx: CommandContext, input: SiteRef & { fields: Parameters<typeof sections.addSection>[4] }) {
  const { site, access } = await writable(ctx, input);
  const section = await sections.addSection(ctx.deps.db, site, access, ctx.userId, input.fields);
  return presentedSection(ctx, input, access, section.id);
}

export async function updateSection(ctx: CommandContext, input: SectionRef & { changes: Parameters<typeof sections.changeSection>[3] }) {
  const { site, access } = await writable(ctx, input);
  await sections.changeSection(ctx.deps.db, site, input.siteSectionId, input.changes);
  return presentedSection(ctx, input, access, input.siteSectionId);
}

export async function moveSection(ctx: CommandContext, input: SectionRef & { move: Parameters<typeof sections.moveSection>[3] }) {
  const { site, access } = await writable(ctx, input);
  await sections.moveSection(ctx.deps.db, site, input.siteSectionId, input.move);
  return presentedSection(ctx, input, access, input.siteSectionId);
}

export async function deleteSection(ctx: CommandContext, input: SectionRef): Promise<void> {
  const site = await deletable(ctx, input);
  if (site) await sections.deleteSection(ctx.deps.db, site, input.siteSectionId);
}

export async function createSectionGroup(
  ctx: CommandContext,
  input: SiteRef & { fields: Parameters<typeof groups.createSectionGroup>[2] },
) {
  const { site, access } = await writable(ctx, input);
  const group = await groups.createSectionGroup(ctx.deps.db, site, input.fields);
  return presentedSectionGroup(ctx, input, access, group.id);
}

export async function updateSectionGroup(
  ctx: CommandContext,
  input: GroupRef & { changes: Parameters<typeof groups.changeSectionGroup>[3] },
) {
  const { site, access } = await writable(ctx, input);
  const group = await groups.changeSectionGroup(ctx.deps.db, site, input.siteSectionGroupId, input.changes);
  return presentedSectionGroup(ctx, input, access, group.id);
}

export async function addSectionToGroup(ctx: CommandContext, input: GroupRef & { sectionId: string }) {
  const { site, access } = await writable(ctx, input);
  const group = await groups.addSectionToGroup(ctx.deps.db, site, input.siteSectionGroupId, input.sectionId);
  return presentedSectionGroup(ctx, input, access, group.id);
}

export async function removeSectionFromGroup(ctx: CommandContext, input: GroupRef & { siteSectionId: string }): Promise<void> {
  const site = await deletable(ctx, input);
  if (site) await groups.removeSectionFromGroup(ctx.deps.db, site, input.siteSectionGroupId, input.siteSectionId);
}

export async function moveSectionGroup(ctx: CommandContext, input: GroupRef & { move: Parameters<typeof groups.moveSectionGroup>[3] }) {
  const { site, access } = await writable(ctx, input);
  const group = await groups.moveSectionGroup(ctx.deps.db, site, input.siteSectionGroupId, input.move);
  return presentedSectionGroup(ctx, input, access, group.id);
}

export async function deleteSectionGroup(ctx: CommandContext, input: GroupRef): Promise<void> {
  const site = await deletable(ctx, input);
  if (site) await groups.deleteSectionGroup(ctx.deps.db, site, input.siteSectionGroupId);
}

export async function createSiteSpace(ctx: CommandContext, input: SiteRef & { fields: Parameters<typeof siteSpaces.createSiteSpace>[4] }) {
  const { site, access } = await writable(ctx, input);
  const ss = await siteSpaces.createSiteSpace(ctx.deps.db, site, access, ctx.userId, input.fields);
  return presentedSiteSpace(ctx, input, access, ss.id);
}

export async function updateSiteSpace(
  ctx: CommandContext,
  input: SiteSpaceRef & { changes: Parameters<typeof siteSpaces.changeSiteSpace>[4] },
) {
  const { site, access } = await writable(ctx, input);
  await siteSpaces.changeSiteSpace(ctx.deps.db, site, access, input.siteSpaceId, input.changes);
  return presentedSiteSpace(ctx, input, access, input.siteSpaceId);
}

export async function moveSiteSpace(ctx: CommandContext, input: SiteSpaceRef & { move: Parameters<typeof siteSpaces.moveSiteSpace>[3] }) {
  const { site, access } = await writable(ctx, input);
  await siteSpaces.moveSiteSpace(ctx.deps.db, site, input.siteSpaceId, input.move);
  return presentedSiteSpace(ctx, input, access, input.siteSpaceId);
}

export async function deleteSiteSpace(ctx: CommandContext, input: SiteSpaceRef): Promise<void> {
  const site = await deletable(ctx, input);
  if (site) await siteSpaces.deleteSiteSpace(ctx.deps.db, site, input.siteSpaceId);
}
