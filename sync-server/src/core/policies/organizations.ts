import type { Role } from '@quire/shared';
import { type RoleTable, roleAllows } from './roleRules';

/**
 * What a member may do in an organization, by their organization role. Being a member at
 * all (a guest included, whose role is none) lets one see the organization, its members
 * and teams; everything below needs a role.
 */
export const ORGANIZATION_ROLES = {
  /** What the organization publishes to its members (OpenAPI specifications, sites): guests are not shown it. */
  readContent: 'read',
  /** Spaces and collections at the top level, OpenAPI specifications. */
  createContent: 'create',
  /** Sites: creating, changing, publishing, deleting them. */
  manageSites: 'create',
  /** Translations: they make spaces. */
  translate: 'create',
  /** Settings, members, teams, identity providers, webhooks, integrations, billing. */
  manage: 'admin',
} as const satisfies RoleTable<string>;

export type OrganizationAction = 'view' | keyof typeof ORGANIZATION_ROLES;

export interface OrganizationMembership {
  isMember: boolean;
  orgRole: Role | null;
}

export function mayOrganization(m: OrganizationMembership, action: OrganizationAction): boolean {
  if (!m.isMember) return false;
  return action === 'view' || roleAllows(ORGANIZATION_ROLES, m.orgRole, action);
}

/** The role an action needs, for the refusal's message ("This needs the admin role…"). */
export const organizationRoleFor = (action: Exclude<OrganizationAction, 'view'>): Role => ORGANIZATION_ROLES[action];

export function organizationPermissions(m: OrganizationMembership) {
  const may = (action: OrganizationAction) => mayOrganization(m, action);
  const member = m.orgRole !== null;
  const admin = may('manage');
  return {
    view: may('view'),
    access: may('view'),
    admin,
    ownTeam: member,
    createContent: may('createContent'),
    createOpenAPISpec: may('createContent'),
    ingestConversations: admin,
    viewBilling: admin,
    listMembers: member,
    listTeams: member,
    listIntegrations: member,
    listInstallations: admin,
    installIntegration: admin,
  };
}
