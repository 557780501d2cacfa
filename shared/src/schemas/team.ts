import { z } from 'zod';
import { IdSchema, ListQuerySchema, TeamRoleSchema, Timestamp, patchBody, text } from './common';
import { TitleSchema } from './organization';

export const TeamSchema = z
  .object({
    object: z.literal('team'),
    id: z.string(),
    title: z.string(),
    members: z.number().int(),
    spaces: z.number().int(),
    createdAt: Timestamp,
    urls: z.object({ location: z.string() }),
    permissions: z.object({ admin: z.boolean(), view: z.boolean() }),
  })
  .meta({ id: 'Team' });
export type Team = z.infer<typeof TeamSchema>;

/** A user id or an email address: team member operations take either. */
const UserRef = z.union([IdSchema, z.string().max(320).email()]);

export const ListTeamsQuery = ListQuerySchema.extend({
  owner: IdSchema.optional(),
  title: text(256).optional(),
});

export const CreateTeamBody = z.strictObject({
  title: TitleSchema,
  members: z.array(UserRef).max(1000).optional(),
});

export const UpdateTeamBody = z.strictObject({ title: TitleSchema });

/** Never empty: a body that changes nothing is a client mistake worth hearing about. */
export const UpdateTeamMembersBody = patchBody({
  add: z.array(UserRef).max(1000).optional(),
  remove: z.array(UserRef).max(1000).optional(),
  memberships: z.record(UserRef, z.strictObject({ role: TeamRoleSchema })).optional(),
});

export const PutTeamMemberBody = z.strictObject({ role: TeamRoleSchema.optional() });

export const TeamMemberItemSchema = z
  .object({
    organization: z.record(z.string(), z.unknown()),
    team: z.object({ role: TeamRoleSchema }),
    permissions: z.object({ view: z.boolean() }),
  })
  .meta({ id: 'TeamMemberItem' });
