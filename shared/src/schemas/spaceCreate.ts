import { z } from 'zod';
import { IdSchema } from './common';
import { TemplateBody } from './content';
import { TitleSchema, unsupported } from './organization';
import { EmojiSchema, LanguageSchema, SpaceEditModeSchema } from './space';

/**
 * The body of `POST O/spaces`. It lives apart from `space.ts` because a template names
 * content references, whose schema depends on `space.ts`.
 */
export const CreateSpaceBody = z
  .strictObject({
    title: TitleSchema.optional(),
    emoji: EmojiSchema.optional(),
    parent: IdSchema.optional(),
    language: LanguageSchema.optional(),
    editMode: SpaceEditModeSchema.optional(),
    /** Fill the new space from a built-in template, as `POST S/content/template` does. */
    template: TemplateBody.pick({ id: true, params: true }).optional(),
    /** Start without content: what every new space does unless a template is given. */
    empty: z.literal(true).optional(),
    computedSource: unsupported(
      'spaces computed from a source are not supported by this server; create the space, then import content or apply a template',
    ),
  })
  .refine((b) => !(b.template && b.empty), { message: '"template" and "empty" cannot be used together', path: ['empty'] });
export type CreateSpaceBody = z.infer<typeof CreateSpaceBody>;
