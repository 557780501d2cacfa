import type { OrgAccess } from '../access/callerAccess';
import { ORGANIZATION_ROLES, mayOrganization } from './organizations';

/**
 * Who may do what with an organization's translations. Members see a translation whose
 * source space they see; creating, changing, deleting and running one makes spaces, so it
 * takes the organization's create role (`translate`).
 */
export const TRANSLATION_WRITE_ROLE = ORGANIZATION_ROLES.translate;

export const mayEditTranslations = (access: Pick<OrgAccess, 'isMember' | 'orgRole'>) => mayOrganization(access, 'translate');
