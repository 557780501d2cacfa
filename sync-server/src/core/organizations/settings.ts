import { badRequest } from '@quire/shared/domainErrors';
import type { UpdateOrganizationBody } from '@quire/shared/schemas/organization';
import type { Deps } from '../platform/deps';
import { requireMergeRuleMembers } from '../spaces/rules';
import { createOrg, hostnameTakenByOtherOrg, type OrgRow, orgHasSite, updateOrg } from '../../store/organizations';
import { createDefaultSite, scheduleDefaultSpec } from './defaultSite';

/**
 * Creates an organization with the caller as its admin; with `withDefaultSite`, a site and
 * a space in the same transaction, and the specification at `openapiUrl` imported once both
 * are committed.
 */
export async function createOrganization(
  deps: Deps,
  userId: string,
  fields: { title: string; emailDomains?: string[] },
  options: { withDefaultSite?: boolean; openapiUrl?: string },
): Promise<OrgRow> {
  if (options.openapiUrl && !options.withDefaultSite) {
    throw badRequest('Invalid query parameter field "openapiUrl": it is only used with withDefaultSite=true.');
  }
  const { org, specId } = await deps.db.transaction(async (tx) => {
    const created = await createOrg(
      tx,
      fields.title,
      userId,
      fields.emailDomains?.map((d) => d.toLowerCase()),
    );
    return options.withDefaultSite ? createDefaultSite(tx, created, userId, options.openapiUrl) : { org: created, specId: undefined };
  });
  scheduleDefaultSpec(deps, specId);
  return org;
}

/**
 * Changes an organization's settings (admins): its default content must be one of its own
 * sites, merge rules may name only its members, and a hostname only one no other
 * organization has. Every check runs before anything is written.
 */
export async function updateOrganization(deps: Deps, org: OrgRow, fields: UpdateOrganizationBody): Promise<OrgRow> {
  const { db } = deps;
  if (fields.defaultContent) {
    if (!(await orgHasSite(db, org.id, fields.defaultContent.site)))
      throw badRequest('Invalid body field "defaultContent.site": invalid default content space or collection provided.');
  }
  await requireMergeRuleMembers(db, org.id, fields.mergeRules);
  if (fields.hostname) {
    if (await hostnameTakenByOtherOrg(db, fields.hostname, org.id))
      throw badRequest('Invalid body field "hostname": already used by another organization.');
  }
  return updateOrg(db, org.id, { ...fields, emailDomains: fields.emailDomains?.map((d) => d.toLowerCase()) });
}
