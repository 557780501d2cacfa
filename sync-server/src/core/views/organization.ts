import type { Organization } from '@quire/shared';
import type { OrgAccess } from '../access/callerAccess';
import { organizationPermissions } from '../policies/organizations';
import type { AgentInstructionsRow, OrgRow } from '../../store/organizations';
import { compact, iso } from './iso';

export function presentOrg(o: OrgRow, access: OrgAccess, base: string): Organization {
  return compact({
    object: 'organization' as const,
    id: o.id,
    title: o.title,
    createdAt: iso(o.created_at) as string,
    emailDomains: o.email_domains ?? [],
    hostname: o.hostname ?? undefined,
    type: o.type,
    useCase: o.use_case ?? undefined,
    communityType: o.community_type ?? undefined,
    defaultRole: o.default_role,
    defaultContent: o.default_content ?? undefined,
    sso: o.sso,
    ai: o.ai,
    inviteLinks: o.invite_links,
    plan: 'self_hosted',
    trial: { status: 'notapplicable', count: 0 },
    mergeRules: o.merge_rules,
    customHostname: o.hostname ?? undefined,
    urls: compact({ location: `${base}/v1/orgs/${o.id}`, app: `${base}/app/orgs/${o.id}`, logo: o.logo ?? undefined }),
    permissions: organizationPermissions(access),
  });
}

const EMPTY_DOCUMENT = { object: 'document' as const, data: { schemaVersion: 1 }, nodes: [] };

/** An organization's instructions for AI agents; never written, an empty document. */
export function presentAgentInstructions(
  instructions: unknown,
  row: AgentInstructionsRow | undefined,
  orgId: string,
  base: string,
  edit: boolean,
) {
  return {
    object: 'agent-instructions' as const,
    instructions: (instructions as typeof EMPTY_DOCUMENT) ?? EMPTY_DOCUMENT,
    ...(row ? { updatedAt: iso(row.updated_at), ...(row.updated_by ? { updatedBy: row.updated_by } : {}) } : {}),
    urls: { location: `${base}/v1/orgs/${orgId}/agent-instructions` },
    permissions: { view: true, edit },
  };
}
