import { notFound } from '@quire/shared/domainErrors';
import type { OrgAccess } from '../access/callerAccess';
import type { CommandContext } from '../platform/deps';
import { siteForRead } from '../sites/siteAccess';
import { readSiteStructureAfterWrite, sectionGroupsPage, sectionsPage, siteSpacesPage } from '../sites/structureRead';
import { envelope } from '../views/listing';
import { SiteStructure } from '../views/site';

/*
 * The reads of a site's structure (`/v1` sections, section groups, site spaces): whoever
 * reads the site reads them, as far as they may see the spaces published.
 */

type SiteRef = { organizationId: string; siteId: string };

/** A site's structure read again after a write, presented to the caller. */
async function structureNow(ctx: CommandContext, input: SiteRef, access: OrgAccess): Promise<SiteStructure> {
  const read = await readSiteStructureAfterWrite(ctx.deps.db, input.organizationId, input.siteId, access);
  return new SiteStructure(read, access, ctx.baseUrl);
}

export async function presentedSection(ctx: CommandContext, input: SiteRef, access: OrgAccess, sectionId: string) {
  const structure = await structureNow(ctx, input, access);
  const section = structure.sections.find((s) => s.id === sectionId);
  if (!section) throw notFound('site section');
  return structure.section(section);
}

export async function presentedSectionGroup(ctx: CommandContext, input: SiteRef, access: OrgAccess, groupId: string) {
  const structure = await structureNow(ctx, input, access);
  const group = structure.groups.find((g) => g.id === groupId);
  if (!group) throw notFound('site section group');
  return structure.group(group);
}

export async function presentedSiteSpace(ctx: CommandContext, input: SiteRef, access: OrgAccess, siteSpaceId: string) {
  const structure = await structureNow(ctx, input, access);
  const ss = structure.siteSpaces.find((s) => s.id === siteSpaceId);
  if (!ss) throw notFound('site space');
  return structure.siteSpace(ss);
}

export async function listSections(
  ctx: CommandContext,
  input: SiteRef & { query: Parameters<typeof sectionsPage>[3] & { shareKey?: string } },
) {
  const { site, access } = await siteForRead(ctx.deps.db, ctx.access, input.organizationId, input.siteId, input.query.shareKey);
  const read = await sectionsPage(ctx.deps.db, site, access, input.query);
  const structure = new SiteStructure(read.structure, access, ctx.baseUrl);
  return envelope(read.page, (s) => structure.section(structure.sections.find((x) => x.id === s.id) ?? s));
}

export async function listSectionGroups(ctx: CommandContext, input: SiteRef & { page: Parameters<typeof sectionGroupsPage>[3] }) {
  const { site, access } = await siteForRead(ctx.deps.db, ctx.access, input.organizationId, input.siteId);
  const { page, structure: read } = await sectionGroupsPage(ctx.deps.db, site, access, input.page);
  const structure = new SiteStructure(read, access, ctx.baseUrl);
  return envelope(page, (g) => structure.group(g));
}

export async function getSectionGroup(ctx: CommandContext, input: SiteRef & { siteSectionGroupId: string }) {
  const { access } = await siteForRead(ctx.deps.db, ctx.access, input.organizationId, input.siteId);
  return presentedSectionGroup(ctx, input, access, input.siteSectionGroupId);
}

export async function listSiteSpaces(
  ctx: CommandContext,
  input: SiteRef & { query: Parameters<typeof siteSpacesPage>[3] & { shareKey?: string } },
) {
  const { site, access } = await siteForRead(ctx.deps.db, ctx.access, input.organizationId, input.siteId, input.query.shareKey);
  const { page, structure: read } = await siteSpacesPage(ctx.deps.db, site, access, input.query);
  const structure = new SiteStructure(read, access, ctx.baseUrl);
  return envelope(page, (ss) => structure.siteSpace(ss));
}
