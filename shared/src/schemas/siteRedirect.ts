import { z } from 'zod';
import { IdSchema, ListQuerySchema, patchBody, QueryBoolean, Timestamp, text } from './common';

/** Redirect source format of the specification: an absolute path of unreserved or percent-encoded characters. */
export const REDIRECT_SOURCE_PATTERN = /^\/(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+)*$/;

const Source = text(1024, 2).regex(REDIRECT_SOURCE_PATTERN, 'must be a path such as /old/page');

export const RedirectDestinationSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('site-section'),
      siteSectionId: IdSchema,
      /** A page path inside the section's default variant; its root when left out. */
      path: text(1024)
        .regex(/^[A-Za-z0-9\-._~/%]*$/, 'must be a path')
        .optional(),
    }),
    z.strictObject({ kind: z.literal('url'), url: text(2048, 1).regex(/^https?:\/\/\S+$/i, 'must be an http(s) URL') }),
  ])
  .meta({ id: 'SiteRedirectDestination' });
export type RedirectDestination = z.infer<typeof RedirectDestinationSchema>;

export const SiteRedirectSchema = z
  .object({
    object: z.literal('site-redirect'),
    id: z.string(),
    source: z.string(),
    destination: RedirectDestinationSchema,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'SiteRedirect' });
export type SiteRedirect = z.infer<typeof SiteRedirectSchema>;

export const ListRedirectsQuery = ListQuerySchema.extend({
  search: text(1024).optional().meta({ description: 'Part of the source path.' }),
  draft: QueryBoolean.optional().meta({ description: 'Redirects are never drafts here: true lists none.' }),
  orderBy: z.enum(['createdAt', 'source']).optional(),
});
export const CreateRedirectBody = z.strictObject({ source: Source, destination: RedirectDestinationSchema });
export const UpdateRedirectBody = patchBody({ source: Source.optional(), destination: RedirectDestinationSchema.optional() });
export const ResolveRedirectQuery = z.object({
  shareKey: text(256).optional(),
  source: text(1024).meta({ description: 'The path to resolve.' }),
});
export const ResolvedRedirectSchema = z.object({ redirect: SiteRedirectSchema, target: z.string() });
