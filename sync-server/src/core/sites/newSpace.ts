import { badRequest, notFound } from '@quire/shared/domainErrors';
import type { ContentRef } from '@quire/shared/schemas/content';
import type { Queryable } from '../../store/db';
import { createSpace, getSpace, type SpaceRow } from '../../store/spaces';
import type { OrgAccess } from '../access/callerAccess';
import { initSpaceContent } from '../content/revisions';
import { TEMPLATES, type TemplatePage, templatePages, writeTemplate } from '../content/templates';

/**
 * A space made for a site on the spot (a section or site space added with `spaceId` null),
 * optionally filled from a built-in template.
 */

export interface SiteSpaceTemplate {
  id: string;
  params?: { contentRefs?: Record<string, ContentRef> };
}

/**
 * The pages of the template a request names, checked before anything is written: an
 * unknown template or a missing reference is a 400 naming the body field, a reference to
 * something the organization does not have a 404.
 */
export function checkedTemplate(db: Queryable, orgId: string, template: SiteSpaceTemplate): Promise<TemplatePage[]> {
  return templatePages(db, orgId, template.id, template.params?.contentRefs ?? {}, 'template.');
}

/** The title of a new space: the one given, else the template's, else `Untitled`. */
export function newSpaceTitle(title: string | null | undefined, template: SiteSpaceTemplate | undefined): string {
  return title ?? (template ? TEMPLATES[template.id]?.title : undefined) ?? 'Untitled';
}

/** A new space at the root of the organization, with the template's pages if any (in the caller's transaction). */
export async function createSiteContentSpace(
  tx: Queryable,
  orgId: string,
  title: string,
  template: { pages: TemplatePage[]; userId: string } | undefined,
): Promise<SpaceRow> {
  const space = await createSpace(tx, orgId, { title });
  const revision = await initSpaceContent(tx, space.id);
  if (!template) return { ...space, revision_id: revision.id };
  const filled = await writeTemplate(tx, { spaceId: space.id }, template.pages, template.userId);
  return { ...space, revision_id: filled.revision.id };
}

/** A space of the same organization the caller can see, named in a body; 404 otherwise. */
export async function spaceForSite(db: Queryable, orgId: string, spaceId: string, access: OrgAccess): Promise<SpaceRow> {
  const space = await getSpace(db, spaceId);
  if (!space || space.org_id !== orgId || !access.roleOn(space)) throw notFound('space');
  return space;
}

/** Where a new section or site space gets its space: one that exists, or one to make in the write's transaction. */
export interface NewContentSource {
  existing: SpaceRow | undefined;
  make: (tx: Queryable, title: string) => Promise<SpaceRow>;
}

/**
 * The space a new section or site space shows: the one named by `spaceId`, or, with
 * `spaceId` null, a new one (filled from `template` when given) made by `make` in the
 * caller's transaction. Every check runs first, so a refused call makes no space.
 */
export async function spaceForNewContent(
  db: Queryable,
  orgId: string,
  access: OrgAccess,
  userId: string,
  b: { spaceId: string | null; template?: SiteSpaceTemplate },
): Promise<NewContentSource> {
  if (b.spaceId !== null) {
    if (b.template) throw badRequest('Invalid body field "template": a template fills a new space, so it needs "spaceId": null.');
    const space = await spaceForSite(db, orgId, b.spaceId, access);
    return { existing: space, make: async () => space };
  }
  const template = b.template && { pages: await checkedTemplate(db, orgId, b.template), userId };
  return { existing: undefined, make: (tx, title) => createSiteContentSpace(tx, orgId, title, template) };
}
