import type { Collection } from '@quire/shared';
import type { OrgAccess } from '../access/callerAccess';
import { collectionPermissions } from '../policies/collections';
import type { CollectionRow } from '../../store/collections';
import { compact } from './iso';
import { apiDefaultLevel } from './space';

export function presentCollection(col: CollectionRow, access: OrgAccess, base: string): Collection {
  const role = access.roleOn(col);
  return compact({
    object: 'collection' as const,
    id: col.id,
    title: col.title,
    description: col.description ?? undefined,
    organization: col.org_id,
    parent: col.parent_id ?? undefined,
    defaultLevel: apiDefaultLevel(col.default_level),
    urls: { location: `${base}/v1/collections/${col.id}`, app: `${base}/app/collections/${col.id}` },
    permissions: collectionPermissions(role),
  });
}
