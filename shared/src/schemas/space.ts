import { z } from 'zod';
import { IdSchema, MergeRulesSchema, RoleSchema, Timestamp, patchBody, text } from './common';
import { DefaultLevelSchema } from './collection';
import { TitleSchema } from './organization';

export const SPACE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'] as const;

export const SpaceSchema = z
  .object({
    object: z.literal('space'),
    id: z.string(),
    title: z.string(),
    emoji: z.string().optional(),
    visibility: z.enum(SPACE_VISIBILITIES),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: Timestamp.optional(),
    editMode: z.enum(['live', 'locked']),
    mergeRules: MergeRulesSchema,
    urls: z.object({
      location: z.string(),
      app: z.string(),
      published: z.string().optional(),
      public: z.string().optional(),
      icon: z.string().optional(),
    }),
    organization: z.string(),
    parent: z.string().optional(),
    language: z.string().optional(),
    revision: z.string(),
    /** null: no default access (members need a grant) */
    defaultLevel: z.union([RoleSchema, z.literal('inherit')]).nullable(),
    comments: z.number().int(),
    changeRequests: z.number().int(),
    changeRequestsOpen: z.number().int(),
    changeRequestsDraft: z.number().int(),
    shareKey: z.string().optional(),
    permissions: z.object({
      view: z.boolean(),
      access: z.boolean(),
      admin: z.boolean(),
      viewInviteLinks: z.boolean(),
      edit: z.boolean(),
      triggerGitSync: z.boolean(),
      comment: z.boolean(),
      merge: z.boolean(),
      review: z.boolean(),
      installIntegration: z.boolean(),
    }),
  })
  .meta({ id: 'Space' });
export type Space = z.infer<typeof SpaceSchema>;

/** An emoji: one grapheme, which a ZWJ sequence with modifiers makes long (the public client allows 50). */
export const EmojiSchema = text(50, 1);
/** BCP 47-ish language tag: `en`, `fr`, `pt-BR`, `zh-Hans`. */
export const LanguageSchema = z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language code such as en or pt-BR');

export const SpaceEditModeSchema = z.enum(['live', 'locked']);

export const UpdateSpaceBody = patchBody({
  editMode: SpaceEditModeSchema.optional(),
  title: TitleSchema.optional(),
  defaultLevel: DefaultLevelSchema.optional(),
  language: LanguageSchema.nullable().optional(),
  mergeRules: MergeRulesSchema.optional(),
  emoji: EmojiSchema.nullable().optional(),
  /** The public client clears a custom icon with null; setting one is refused (spaces have emoji only). */
  icon: z.null({ error: 'custom space icons are not supported by this server; use "emoji"' }).optional(),
  visibility: z.enum(SPACE_VISIBILITIES).optional(),
});
export type UpdateSpaceBody = z.infer<typeof UpdateSpaceBody>;

export const GetSpaceQuery = z.object({ shareKey: text(256).optional() });

export const MemberSpaceItem = z.object({ permission: RoleSchema, space: SpaceSchema });

export const SpaceIdParam = z.object({ spaceId: IdSchema });
