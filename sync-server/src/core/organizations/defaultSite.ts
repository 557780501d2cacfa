import { initSpaceContent } from '../content/revisions';
import { templatePages, writeTemplate } from '../content/templates';
import { scheduleSpecProcessing } from '../openapi/process';
import { addSiteSpace, slugify } from '../sites/structure';
import type { Deps, DbHandle } from '../platform/deps';
import { insertSpec } from '../../store/openapiSpecs';
import { type OrgRow, updateOrg } from '../../store/organizations';
import { createSite, freeBasename } from '../../store/sites';
import { createSpace } from '../../store/spaces';

/** The slug of the specification a new organization's default site starts with. */
const DEFAULT_SPEC_SLUG = 'api';

/**
 * A new organization's default content: a site named after it, with one space, left
 * unpublished. With `openapiUrl`, the space starts with an API reference page built from a
 * specification imported from that URL (the import runs in the background, as for any
 * spec: `scheduleDefaultSpec` starts it once the transaction is committed).
 */
export async function createDefaultSite(
  tx: DbHandle,
  org: OrgRow,
  userId: string,
  openapiUrl?: string,
): Promise<{ org: OrgRow; specId?: string }> {
  const space = await createSpace(tx, org.id, { title: org.title });
  await initSpaceContent(tx, space.id);
  const spec = openapiUrl ? await insertSpec(tx, org.id, DEFAULT_SPEC_SLUG, { url: openapiUrl }) : undefined;
  if (spec) {
    const pages = await templatePages(tx, org.id, 'api-reference', { spec: { kind: 'openapi', spec: spec.slug } });
    await writeTemplate(tx, { spaceId: space.id }, pages, userId);
  }
  const site = await createSite(tx, org.id, {
    title: org.title,
    type: 'basic',
    visibility: 'public',
    basename: await freeBasename(tx, org.id, slugify(org.title, 'docs')),
  });
  await addSiteSpace(tx, site, space, null);
  return { org: await updateOrg(tx, org.id, { defaultContent: { type: 'site', site: site.id } }), specId: spec?.id };
}

/** Starts importing the default site's specification, once its row is committed. */
export function scheduleDefaultSpec(deps: Deps, specId: string | undefined) {
  if (specId) void scheduleSpecProcessing(deps, specId);
}
