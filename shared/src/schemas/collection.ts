import { z } from 'zod';
import { IdSchema, ListQuerySchema, QueryBoolean, RoleSchema, patchBody, text } from './common';
import { TitleSchema } from './organization';

/** `inherit` (or null) means the level comes from the parent collection or the organization. */
export const DefaultLevelSchema = z.union([RoleSchema, z.literal('inherit')]).nullable();

export const CollectionSchema = z
  .object({
    object: z.literal('collection'),
    id: z.string(),
    title: z.string(),
    description: z.string().optional(),
    organization: z.string(),
    parent: z.string().optional(),
    /** null: no default access (members need a grant) */
    defaultLevel: z.union([RoleSchema, z.literal('inherit')]).nullable(),
    urls: z.object({ location: z.string(), app: z.string() }),
    permissions: z.object({
      view: z.boolean(),
      admin: z.boolean(),
      viewInviteLinks: z.boolean(),
      create: z.boolean(),
    }),
  })
  .meta({ id: 'Collection' });
export type Collection = z.infer<typeof CollectionSchema>;

export const ListCollectionsQuery = ListQuerySchema.extend({ nested: QueryBoolean.optional() });

/** Every field is optional, as for spaces: a collection without a title is "Untitled". */
export const CreateCollectionBody = z.strictObject({
  title: TitleSchema.optional(),
  parent: IdSchema.optional(),
  description: text(1000).optional(),
});

export const UpdateCollectionBody = patchBody({
  title: TitleSchema.optional(),
  description: text(1000).optional(),
  defaultLevel: DefaultLevelSchema.optional(),
});

const Anchor = z.union([
  z.strictObject({ type: z.literal('space'), space: IdSchema }),
  z.strictObject({ type: z.literal('collection'), collection: IdSchema }),
]);

/** Where to put a moved space or collection among its siblings. */
export const PositionSchema = z.strictObject({ before: Anchor.optional(), after: Anchor.optional() });

export const MoveBody = z.strictObject({
  parent: IdSchema.nullable().optional(),
  position: PositionSchema.optional(),
});
export type MoveBody = z.infer<typeof MoveBody>;

export const TransferBody = z.strictObject({ organization: IdSchema });
