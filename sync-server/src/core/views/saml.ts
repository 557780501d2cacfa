import type { Role } from '@quire/shared';
import type { SamlProvider } from '@quire/shared/schemas/saml';
import type { OrgAccess } from '../access/callerAccess';
import { serviceUrls } from '../sso/serviceProvider';
import type { SamlProviderRow } from '../../store/saml';
import type { TeamRow } from '../../store/teams';
import { compact, iso } from './iso';
import { presentTeam } from './team';

export function presentProvider(p: SamlProviderRow, team: TeamRow | undefined, access: OrgAccess, base: string): SamlProvider {
  return compact({
    object: 'saml-provider' as const,
    id: p.id,
    label: p.label,
    ssoURL: p.sso_url,
    entityID: p.entity_id,
    certificate: p.certificate,
    defaultTeam: team ? presentTeam(team, access, access.isAdmin, base) : undefined,
    defaultRole: p.default_role as Role | null,
    createdAt: iso(p.created_at) as string,
    status: p.status,
    service: serviceUrls(base, p.id),
    urls: { location: `${base}/v1/orgs/${p.org_id}/saml/${p.id}` },
    permissions: { view: access.isAdmin, edit: access.isAdmin },
  });
}
