import { z } from 'zod';
import { IdSchema, ListQuerySchema, listOf, patchBody, QueryBoolean, Timestamp, text } from './common';
import { SiteCustomizationSettingsSchema } from './siteCustomization';
import { unsupported } from './siteFields';

/** Formats of the specification. */
export const SITE_HOSTNAME_PATTERN = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;
export const SITE_PROXY_PATTERN = /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/;
/** A URL segment chosen by people: lowercase letters, digits and single dashes. */
export const SITE_PATH_PATTERN = /^[a-z0-9]+(?:[-_.][a-z0-9]+)*$/;

export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export const SiteVisibilitySchema = z.enum(SITE_VISIBILITIES);
export type SiteVisibility = z.infer<typeof SiteVisibilitySchema>;
export const SITE_TYPES = ['basic', 'premium', 'ultimate'] as const;
/** Site types the public client names; the older plans and `sponsored` never match a site here. */
export const CLIENT_SITE_TYPES = [...SITE_TYPES, 'sponsored', 'legacy-basic', 'legacy-premium'] as const;

const SitePath = text(100, 1).regex(SITE_PATH_PATTERN, 'must be lowercase letters and digits separated by - _ or .');

export const SiteSchema = z
  .object({
    object: z.literal('site'),
    id: z.string(),
    title: z.string(),
    type: z.enum(SITE_TYPES),
    /** The type in effect (the same as `type`: plans are never frozen here). */
    appliedType: z.enum(SITE_TYPES),
    icon: z.object({ icon: z.object({ light: z.string(), dark: z.string().optional() }) }).optional(),
    hostname: z.string().optional(),
    basename: z.string(),
    proxy: z.object({ origin: z.string(), target: z.string() }).optional(),
    visibility: SiteVisibilitySchema,
    /** Sites have no access list of their own: the organization's roles apply. */
    defaultLevel: z.literal('inherit'),
    published: z.boolean(),
    siteSpaces: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    adaptiveContent: z.object({ enabled: z.boolean() }),
    ads: z.object({ status: z.string(), submittable: z.boolean() }),
    agentsContext: z.enum(['excluded', 'included']),
    features: z.array(z.object({ id: z.string(), plan: z.string(), frozen: z.boolean(), customizations: z.array(z.string()) })),
    defaultSiteSection: z.string().optional(),
    defaultSiteSpace: z.string().optional(),
    /** Secret of a share-link site; only those who manage the site see it. */
    shareKey: z.string().optional(),
    /** Key visitor JWTs are signed with (HS256, `aud` = the site id); only those who manage the site see it. */
    visitorAuth: z.object({ signingKey: z.string(), audience: z.string() }).optional(),
    permissions: z.object({
      view: z.boolean(),
      access: z.boolean(),
      edit: z.boolean(),
      create: z.boolean(),
      admin: z.boolean(),
      installIntegration: z.boolean(),
      viewAdaptiveSchema: z.boolean(),
      editAdaptiveSchema: z.boolean(),
    }),
    urls: z.object({
      location: z.string(),
      app: z.string(),
      published: z.string(),
      /** Sites have no separate preview: the published address. */
      preview: z.string(),
    }),
  })
  .meta({ id: 'Site' });
export type Site = z.infer<typeof SiteSchema>;

export const ListSitesQuery = ListQuerySchema.extend({
  space: IdSchema.optional().meta({ description: 'Only sites that publish this space.' }),
  title: text(256).optional().meta({ description: 'Case-insensitive part of the title.' }),
  published: QueryBoolean.optional(),
  /** One type, or several (`type=basic&type=premium`, as the public client sends an array). */
  type: z
    .union([z.enum(CLIENT_SITE_TYPES), z.array(z.enum(CLIENT_SITE_TYPES)).max(CLIENT_SITE_TYPES.length)])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .optional()
    .meta({ description: 'Only sites of these types.' }),
});

export const CreateSiteBody = z.strictObject({
  type: z.enum(SITE_TYPES).optional(),
  title: text(128, 1).optional(),
  visibility: SiteVisibilitySchema.optional(),
  spaces: z.array(IdSchema).max(50).optional(),
});

export type CreateSiteBody = z.infer<typeof CreateSiteBody>;

export const UpdateSiteBody = patchBody({
  title: text(128, 1).optional(),
  visibility: SiteVisibilitySchema.optional(),
  basename: SitePath.optional(),
  hostname: z.string().max(253).regex(SITE_HOSTNAME_PATTERN, 'must be a hostname such as docs.example.com').nullable().optional(),
  adaptiveContent: z.strictObject({ enabled: z.boolean() }).optional(),
  agentsContext: z.enum(['excluded', 'included']).optional(),
  defaultSiteSpace: IdSchema.optional(),
  defaultSiteSection: IdSchema.optional(),
  proxy: z.string().max(512).regex(SITE_PROXY_PATTERN, 'must be a host and path such as example.com/docs').nullable().optional(),
  defaultLevel: z
    .unknown()
    .refine((v) => v === 'inherit', {
      error: 'sites have no access list of their own: the organization\'s roles apply, so only "inherit" is accepted',
    })
    .optional(),
  styleguide: unsupported('style guides are not supported by this server'),
});
export type UpdateSiteBody = z.infer<typeof UpdateSiteBody>;

export const ShareKeyQuery = z.object({ shareKey: text(256).optional() });

/** A JSON Schema (draft-07) of the claims visitors carry; checked by the server before it is stored. */
export const SiteAdaptiveSchemaSchema = z
  .object({
    object: z.literal('site-adaptive-schema'),
    jsonSchema: z.record(z.string(), z.unknown()),
    updatedAt: Timestamp,
    urls: z.object({ location: z.string() }),
    /** Read by whoever reads the site; replaced by its managers. */
    permissions: z.object({ view: z.boolean(), edit: z.boolean() }),
  })
  .meta({ id: 'SiteAdaptiveSchema' });
export const PutAdaptiveSchemaBody = z.strictObject({ jsonSchema: z.record(z.string(), z.unknown()) });

export const TemplateConditionSchema = z.object({ description: z.string(), condition: z.string() });
/** Every condition at once (one per visitor claim), in the list envelope. */
export const TemplateConditionsSchema = listOf(TemplateConditionSchema);

export const PublishedContentSiteSchema = z
  .object({
    object: z.literal('published-content-site'),
    site: SiteSchema,
    structure: z.object({ type: z.enum(['sections', 'siteSpaces']), structure: z.array(z.unknown()) }),
    customizations: z.object({
      site: SiteCustomizationSettingsSchema,
      siteSpaces: z.record(z.string(), SiteCustomizationSettingsSchema),
    }),
    scripts: z.array(z.object({ script: z.string(), contentSecurityPolicy: z.string().optional(), cookies: z.boolean() })),
    urls: z.object({ location: z.string(), published: z.string() }),
    /** What the caller may do with the site this describes. */
    permissions: z.object({ view: z.boolean(), edit: z.boolean() }),
  })
  .meta({ id: 'PublishedContentSite' });
