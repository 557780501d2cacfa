import { z } from 'zod';
import { IdSchema, ListQuerySchema, patchBody, QueryBoolean, Timestamp, text } from './common';
import { LiveOnly } from './siteFields';

/** Redirect source format of the specification: an absolute path of unreserved or percent-encoded characters. */
export const REDIRECT_SOURCE_PATTERN = /^\/(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+)*$/;

/**
 * What a source may be when written: the specification's format, plus `+` and a trailing
 * wildcard (`/old/*` matches every path below `/old/`, `/old*` every path starting so), as
 * the public client of this API family allows.
 */
export const REDIRECT_SOURCE_INPUT_PATTERN =
  /^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/;

const Source = text(1024, 2).regex(REDIRECT_SOURCE_INPUT_PATTERN, 'must be a path such as /old/page, optionally ending with * or /*');
const HttpUrl = text(2048, 1).regex(/^https?:\/\/\S+$/i, 'must be an http(s) URL');

const toSiteSection = z.strictObject({
  kind: z.literal('site-section'),
  siteSectionId: IdSchema,
  /** A page path inside the section's default variant; its root when left out. */
  path: text(1024)
    .regex(/^[A-Za-z0-9\-._~/%]*$/, 'must be a path')
    .optional(),
});
const toSiteSpace = z.strictObject({ kind: z.literal('site-space'), siteSpaceId: IdSchema });
const toSitePage = z.strictObject({ kind: z.literal('site-page'), siteSpaceId: IdSchema, pageId: IdSchema });
const toExternal = z.strictObject({ kind: z.literal('external'), url: HttpUrl });
/** The same as `external`, under the name this server first used. */
const toUrl = z.strictObject({ kind: z.literal('url'), url: HttpUrl });

export const RedirectDestinationSchema = z
  .discriminatedUnion('kind', [toSiteSection, toSiteSpace, toSitePage, toExternal, toUrl])
  .meta({ id: 'SiteRedirectDestination' });
export type RedirectDestination = z.infer<typeof RedirectDestinationSchema>;

/**
 * A destination as a create may name it: also a page by its path in a space the site
 * publishes, which is stored as the `site-page` it resolves to.
 */
export const RedirectInputDestinationSchema = z.discriminatedUnion('kind', [
  toSiteSection,
  toSiteSpace,
  toSitePage,
  toExternal,
  toUrl,
  z.strictObject({ kind: z.literal('path'), spaceId: IdSchema, path: text(1024, 1) }),
]);
export type RedirectInputDestination = z.infer<typeof RedirectInputDestinationSchema>;

export const SiteRedirectSchema = z
  .object({
    object: z.literal('site-redirect'),
    id: z.string(),
    source: z.string(),
    destination: RedirectDestinationSchema,
    /** Always false: redirects are live as soon as they are made. */
    draft: z.boolean(),
    captureWildcard: z.boolean(),
    /** Permanent: 301 (308 for other methods); otherwise 302 (307). */
    permanent: z.boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    urls: z.object({ location: z.string() }),
    /** Redirects are read by the site's readers in the organization and changed by its managers. */
    permissions: z.object({ view: z.boolean(), edit: z.boolean() }),
  })
  .meta({ id: 'SiteRedirect' });
export type SiteRedirect = z.infer<typeof SiteRedirectSchema>;

export const ListRedirectsQuery = ListQuerySchema.extend({
  search: text(1024).optional().meta({ description: 'Part of the source path.' }),
  draft: QueryBoolean.optional().meta({ description: 'Redirects are never drafts here: true lists none.' }),
  orderBy: z
    .enum(['createdAt', 'updatedAt', 'source'])
    .optional()
    .meta({ description: '`createdAt` (default): oldest first; `updatedAt`: most recently changed first; `source`: by path.' }),
});
export const CreateRedirectBody = z.strictObject({
  source: Source,
  destination: RedirectInputDestinationSchema,
  /** Defaults to true: redirects here have always been permanent. */
  permanent: z.boolean().optional(),
  captureWildcard: z.boolean().optional(),
  draft: LiveOnly,
});
export type CreateRedirectBody = z.infer<typeof CreateRedirectBody>;
export const UpdateRedirectBody = patchBody({
  source: Source.optional(),
  destination: RedirectInputDestinationSchema.optional(),
  permanent: z.boolean().optional(),
  captureWildcard: z.boolean().optional(),
  draft: LiveOnly,
});
export type UpdateRedirectBody = z.infer<typeof UpdateRedirectBody>;
export const ResolveRedirectQuery = z.object({
  shareKey: text(256).optional(),
  source: text(1024).meta({ description: 'The path to resolve.' }),
});
export const ResolvedRedirectSchema = z.object({ redirect: SiteRedirectSchema, target: z.string() });
