import type { User } from '@quire/shared';
import type { UserRow } from '../../store/users';
import { compact } from './iso';

export function presentUser(u: UserRow, base: string): User {
  return compact({
    object: 'user' as const,
    id: u.id,
    displayName: u.display_name,
    email: u.email,
    photoURL: u.photo_url ?? undefined,
    urls: { location: `${base}/v1/users/${u.id}` },
    permissions: { view: true },
  });
}
