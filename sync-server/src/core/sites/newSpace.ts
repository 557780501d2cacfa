import type { ContentRef } from '@quire/shared/schemas/content';
import type { Queryable } from '../../store/db';
import { createSpace, type SpaceRow } from '../../store/spaces';
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
