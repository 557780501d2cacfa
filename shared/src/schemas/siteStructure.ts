import { z } from 'zod';
import { IdSchema, ListQuerySchema, patchBody, QueryBoolean, text } from './common';
import { ContentRefSchema } from './content';
import { SITE_PATH_PATTERN } from './site';
import { LiveOnly, unsupported } from './siteFields';
import { SpaceSchema } from './space';

/** Sections, section groups and site spaces: how a site arranges the spaces it publishes. */

const Title = text(128, 1);
const Icon = text(64, 1);
const SitePath = text(100, 1).regex(SITE_PATH_PATTERN, 'must be lowercase letters and digits separated by - _ or .');
/** An adaptive-content expression; its syntax is checked by the server. */
const Condition = text(1000, 1);
const NO_LOCALIZED = unsupported('localized titles and descriptions are not supported by this server');
/** A custom home page: only `null` (the space's first page, which is where a site space opens here). */
const NoHomePage = z
  .unknown()
  .refine((v) => v === null, { error: 'custom home pages are not supported: a site space opens on its first page' })
  .optional();

/** A built-in template filling the new space made when `spaceId` is null. */
export const SpaceTemplateSchema = z.strictObject({
  id: text(64, 1),
  params: z.strictObject({ contentRefs: z.record(z.string().max(64), ContentRefSchema).optional() }).optional(),
});

/** Site structure is read by whoever reads the site and changed by its managers. */
const StructurePermissions = z.object({ view: z.boolean(), edit: z.boolean() });

export const SiteSpaceSchema = z
  .object({
    object: z.literal('site-space'),
    id: z.string(),
    path: z.string(),
    section: z.string().optional(),
    space: SpaceSchema,
    /** The site space's own title when it has one, else its space's. */
    title: z.string(),
    default: z.boolean(),
    condition: z.string().optional(),
    /** Always false: site content is live as soon as it is added. */
    draft: z.boolean(),
    hasAdvancedCustomizationFeature: z.boolean(),
    urls: z.object({ published: z.string() }),
    permissions: StructurePermissions,
  })
  .meta({ id: 'SiteSpace' });
export type SiteSpace = z.infer<typeof SiteSpaceSchema>;

export const SiteSectionSchema = z
  .object({
    object: z.literal('site-section'),
    id: z.string(),
    title: z.string(),
    description: z.string().optional(),
    default: z.boolean(),
    draft: z.boolean(),
    path: z.string(),
    condition: z.string().optional(),
    sectionGroup: z.string().optional(),
    siteSpaces: z.array(SiteSpaceSchema),
    icon: z.string().optional(),
    urls: z.object({ published: z.string() }),
    permissions: StructurePermissions,
  })
  .meta({ id: 'SiteSection' });
export type SiteSection = z.infer<typeof SiteSectionSchema>;

export const SiteSectionGroupSchema = z
  .object({
    object: z.literal('site-section-group'),
    id: z.string(),
    title: z.string(),
    sectionGroup: z.string().optional(),
    draft: z.boolean(),
    /** The sections directly in the group (kept for clients that read it; `children` also has nested groups). */
    sections: z.array(SiteSectionSchema),
    /** Sections and nested groups directly in the group, in order. */
    children: z.array(
      z.union([SiteSectionSchema, z.looseObject({ object: z.literal('site-section-group'), id: z.string(), title: z.string() })]),
    ),
    icon: z.string().optional(),
    /** A group is a menu of the published site, with no page of its own: its address is the API's. */
    urls: z.object({ location: z.string() }),
    permissions: StructurePermissions,
  })
  .meta({ id: 'SiteSectionGroup' });
export type SiteSectionGroup = z.infer<typeof SiteSectionGroupSchema>;

export const ListSectionsQuery = ListQuerySchema.extend({ shareKey: text(256).optional() });
export const ListSiteSpacesQuery = ListQuerySchema.extend({
  shareKey: text(256).optional(),
  default: QueryBoolean.optional().meta({ description: 'true: only the default site space; false: only the others.' }),
});

/** `spaceId` null makes a new space (filled from `template` when given), titled after the section. */
export const CreateSectionBody = z.strictObject({
  spaceId: IdSchema.nullable(),
  template: SpaceTemplateSchema.optional(),
  title: Title.nullable().optional(),
  icon: Icon.nullable().optional(),
  siteSectionGroupId: IdSchema.optional(),
  draft: LiveOnly,
  pageId: NoHomePage,
});
export type CreateSectionBody = z.infer<typeof CreateSectionBody>;
export const UpdateSectionBody = patchBody({
  title: Title.optional(),
  path: SitePath.optional(),
  defaultSiteSpace: IdSchema.optional(),
  condition: Condition.nullable().optional(),
  icon: Icon.nullable().optional(),
  description: text(512).nullable().optional(),
  /** The group to move the section into (at its end); null moves it to the site's root. */
  siteSectionGroupId: IdSchema.nullable().optional(),
  draft: LiveOnly,
  localizedTitle: NO_LOCALIZED,
  localizedDescription: NO_LOCALIZED,
});
export type UpdateSectionBody = z.infer<typeof UpdateSectionBody>;

const SectionAnchor = z.strictObject({ type: z.literal('site-section'), siteSection: IdSchema });
/** Without `position`, the item goes last among its siblings. */
export const MoveSectionBody = z.strictObject({
  position: z.strictObject({ before: SectionAnchor.optional(), after: SectionAnchor.optional() }).optional(),
});

export const CreateSectionGroupBody = z.strictObject({
  title: Title,
  icon: Icon.nullable().optional(),
  sections: z.array(IdSchema).max(100).optional(),
  parent: IdSchema.optional(),
  draft: LiveOnly,
});
export const UpdateSectionGroupBody = patchBody({
  title: Title.optional(),
  icon: Icon.nullable().optional(),
  /** The group to nest this one in (at its end); null moves it to the site's root. */
  parentSectionGroupId: IdSchema.nullable().optional(),
  draft: LiveOnly,
  localizedTitle: NO_LOCALIZED,
});
export const AddSectionToGroupBody = z.strictObject({ sectionId: IdSchema });
/** Groups sit among sections, so an anchor may name either. */
const GroupAnchor = z.strictObject({ type: z.enum(['site-section', 'site-section-group']), id: IdSchema });
export const MoveSectionGroupBody = z.strictObject({
  position: z.strictObject({ before: GroupAnchor.optional(), after: GroupAnchor.optional() }).optional(),
});

/** `spaceId` null makes a new space (filled from `template` when given), titled `title`. */
export const CreateSiteSpaceBody = z.strictObject({
  spaceId: IdSchema.nullable(),
  template: SpaceTemplateSchema.optional(),
  sectionId: IdSchema.optional(),
  title: Title.optional(),
  draft: LiveOnly,
  pageId: NoHomePage,
});
export type CreateSiteSpaceBody = z.infer<typeof CreateSiteSpaceBody>;
export const UpdateSiteSpaceBody = patchBody({
  path: SitePath.optional(),
  condition: Condition.nullable().optional(),
  spaceId: IdSchema.optional(),
  /** The site space's own title; null shows its space's title again. */
  title: Title.nullable().optional(),
  pageId: NoHomePage,
  hidden: z
    .boolean()
    .refine((v) => v === false, { error: 'hiding a site space from navigation is not supported: remove it from the site instead' })
    .optional(),
  draft: LiveOnly,
});
const SiteSpaceAnchor = z.strictObject({ type: z.literal('site-space'), siteSpace: IdSchema });
export const MoveSiteSpaceBody = z.strictObject({
  position: z.strictObject({ before: SiteSpaceAnchor.optional(), after: SiteSpaceAnchor.optional() }).optional(),
});
