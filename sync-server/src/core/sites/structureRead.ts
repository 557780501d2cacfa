import type { OrgAccess } from '../access/callerAccess';
import { conditionHolds } from './expression';
import type { Queryable } from '../../store/db';
import type { Page, PageRequest } from '../../store/paginate';
import { getSite, type SiteRow } from '../../store/sites';
import {
  type SectionGroupRow,
  type SectionRow,
  type SiteSpaceRow,
  groupsOfSite,
  listSectionGroups,
  listSections,
  listSiteSpaces,
  sectionsOfSite,
  siteSpacesOfSite,
} from '../../store/sitesStructure';
import { type SpaceCounts, spaceCounts } from '../../store/spaceCounts';
import { type SpaceRow, spacesById } from '../../store/spaces';
import { ORGANIZATION_ROLES, mayOrganization } from '../policies/organizations';

/** The role in its organization that may change a site. */
export const SITE_MANAGER_ROLE = ORGANIZATION_ROLES.manageSites;

/** A site's structure as one caller may read it, with the spaces it publishes. */
export interface SiteStructureRead {
  site: SiteRow;
  sections: SectionRow[];
  groups: SectionGroupRow[];
  siteSpaces: SiteSpaceRow[];
  spaces: SpaceRow[];
  counts: Map<string, SpaceCounts>;
  /** May change the site: decides `permissions.edit` of every part. */
  manager: boolean;
}

/** What a visitor without claims is shown of conditioned rows: those whose condition holds, without it. */
function visibleToVisitor<R extends { condition: string | null }>(rows: R[]): R[] {
  const ctx = { visitor: { claims: {} } };
  return rows.filter((r) => conditionHolds(r.condition, ctx)).map((r) => ({ ...r, condition: null }));
}

/**
 * Every row of a site's structure plus the spaces it publishes, loaded at once (a fixed
 * number of queries). Members of the site's organization read its whole structure. Anyone
 * else reads it as a visitor of the published site would: sections and site spaces whose
 * conditions hide them from a visitor without claims are left out, without their conditions.
 */
export async function readSiteStructure(db: Queryable, site: SiteRow, access: OrgAccess): Promise<SiteStructureRead> {
  const [allSections, groups, allSiteSpaces] = await Promise.all([
    sectionsOfSite(db, site.id),
    groupsOfSite(db, site.id),
    siteSpacesOfSite(db, site.id),
  ]);
  const visitor = !access.isMember;
  const sections = visitor ? visibleToVisitor(allSections) : allSections;
  const sectionIds = new Set(sections.map((s) => s.id));
  const siteSpaces = visitor
    ? visibleToVisitor(allSiteSpaces).filter((ss) => !ss.section_id || sectionIds.has(ss.section_id))
    : allSiteSpaces;
  const ids = [...new Set(siteSpaces.map((s) => s.space_id))];
  const spaces = await spacesById(db, ids);
  const counts = await spaceCounts(db, ids);
  const manager = mayOrganization(access, 'manageSites');
  return { site, sections, groups, siteSpaces, spaces, counts, manager };
}

/** A site's structure read again, as a write just left it (the site was found before the write). */
export async function readSiteStructureAfterWrite(
  db: Queryable,
  orgId: string,
  siteId: string,
  access: OrgAccess,
): Promise<SiteStructureRead> {
  return readSiteStructure(db, (await getSite(db, orgId, siteId)) as SiteRow, access);
}

/** A page of a site's sections, with the structure they are presented in. */
export async function sectionsPage(
  db: Queryable,
  site: SiteRow,
  access: OrgAccess,
  q: PageRequest,
): Promise<{ page: Page<SectionRow>; structure: SiteStructureRead }> {
  const page = await listSections(db, site.id, q);
  return { page, structure: await readSiteStructure(db, site, access) };
}

/** A page of a site's section groups, with the structure they are presented in. */
export async function sectionGroupsPage(
  db: Queryable,
  site: SiteRow,
  access: OrgAccess,
  q: PageRequest,
): Promise<{ page: Page<SectionGroupRow>; structure: SiteStructureRead }> {
  const page = await listSectionGroups(db, site.id, q);
  return { page, structure: await readSiteStructure(db, site, access) };
}

/**
 * A page of a site's site spaces, with the structure they are presented in; `default` keeps
 * only the default ones (the root's and each section's), or only the others.
 */
export async function siteSpacesPage(
  db: Queryable,
  site: SiteRow,
  access: OrgAccess,
  q: PageRequest & { default?: boolean },
): Promise<{ page: Page<SiteSpaceRow>; structure: SiteStructureRead }> {
  const structure = await readSiteStructure(db, site, access);
  const defaultIds = [site.default_site_space_id, ...structure.sections.map((s) => s.default_site_space_id)].filter(
    (x): x is string => !!x,
  );
  const page = await listSiteSpaces(db, site.id, { defaultOnly: q.default, defaultIds }, q);
  return { page, structure };
}
