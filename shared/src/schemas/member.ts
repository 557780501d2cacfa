import { z } from 'zod';
import { ListQuerySchema, OrderSchema, RoleSchema, TeamRoleSchema, Timestamp, patchBody, text } from './common';
import { UserSchema } from './user';

export const MemberSchema = z
  .object({
    object: z.literal('member'),
    id: z.string(),
    role: RoleSchema.nullable(),
    user: UserSchema,
    disabled: z.boolean(),
    joinedAt: Timestamp,
    lastSeenAt: Timestamp.optional(),
    sso: z.boolean(),
    spaces: z.number().int(),
    teams: z.number().int(),
    /** Sites granted to the member directly (sites carry no per-member grants here: 0). */
    sites: z.number().int(),
    urls: z.object({ location: z.string() }),
    /** `edit`: change the role (admins); `delete`: remove the member (admins, or members leaving). */
    permissions: z.object({ view: z.boolean(), edit: z.boolean(), delete: z.boolean() }),
  })
  .meta({ id: 'Member' });
export type Member = z.infer<typeof MemberSchema>;

export const ListMembersQuery = ListQuerySchema.extend({
  order: OrderSchema.optional(),
  /** A role, or `guest` for members without one. */
  role: z.union([RoleSchema, z.literal('guest')]).optional(),
  search: text(256).optional(),
  /** `name` sorts by display name, case-insensitively; `order` applies as for the other sorts. */
  sort: z.enum(['joinedAt', 'lastSeenAt', 'name']).optional(),
});

export const UpdateMemberBody = patchBody({ role: RoleSchema.nullable().optional() });

export const MemberTeamItem = z.object({
  team: z.lazy(() => z.record(z.string(), z.unknown())),
  member: z.object({ role: TeamRoleSchema }),
});
