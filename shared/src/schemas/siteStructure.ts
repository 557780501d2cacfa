import { z } from 'zod';
import { IdSchema, ListQuerySchema, patchBody, QueryBoolean, text } from './common';
import { SITE_PATH_PATTERN } from './site';
import { SpaceSchema } from './space';

/** Sections, section groups and site spaces: how a site arranges the spaces it publishes. */

const Title = text(128, 1);
const Icon = text(64, 1);
const SitePath = text(100, 1).regex(SITE_PATH_PATTERN, 'must be lowercase letters and digits separated by - _ or .');
/** An adaptive-content expression; its syntax is checked by the server. */
const Condition = text(1000, 1);

export const SiteSpaceSchema = z
  .object({
    object: z.literal('site-space'),
    id: z.string(),
    path: z.string(),
    section: z.string().optional(),
    space: SpaceSchema,
    title: z.string(),
    default: z.boolean(),
    condition: z.string().optional(),
    hasAdvancedCustomizationFeature: z.boolean(),
    urls: z.object({ published: z.string() }),
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
    path: z.string(),
    condition: z.string().optional(),
    sectionGroup: z.string().optional(),
    siteSpaces: z.array(SiteSpaceSchema),
    icon: z.string().optional(),
    urls: z.object({ published: z.string() }),
  })
  .meta({ id: 'SiteSection' });
export type SiteSection = z.infer<typeof SiteSectionSchema>;

export const SiteSectionGroupSchema = z
  .object({
    object: z.literal('site-section-group'),
    id: z.string(),
    title: z.string(),
    sectionGroup: z.string().optional(),
    children: z.array(SiteSectionSchema),
    icon: z.string().optional(),
  })
  .meta({ id: 'SiteSectionGroup' });
export type SiteSectionGroup = z.infer<typeof SiteSectionGroupSchema>;

export const ListSectionsQuery = ListQuerySchema.extend({ shareKey: text(256).optional() });
export const ListSiteSpacesQuery = ListQuerySchema.extend({
  shareKey: text(256).optional(),
  default: QueryBoolean.optional().meta({ description: 'true: only the default site space; false: only the others.' }),
});

export const CreateSectionBody = z.strictObject({ spaceId: IdSchema, title: Title.optional(), icon: Icon.optional() });
export const UpdateSectionBody = patchBody({
  title: Title.optional(),
  path: SitePath.optional(),
  defaultSiteSpace: IdSchema.optional(),
  condition: Condition.nullable().optional(),
  icon: Icon.nullable().optional(),
  description: text(512).nullable().optional(),
});
export type UpdateSectionBody = z.infer<typeof UpdateSectionBody>;

const SectionAnchor = z.strictObject({ type: z.literal('site-section'), siteSection: IdSchema });
export const MoveSectionBody = z.strictObject({
  position: z.strictObject({ before: SectionAnchor.optional(), after: SectionAnchor.optional() }),
});

export const CreateSectionGroupBody = z.strictObject({
  title: Title,
  icon: Icon.optional(),
  sections: z.array(IdSchema).max(100).optional(),
  parent: IdSchema.optional(),
});
export const UpdateSectionGroupBody = patchBody({ title: Title.optional(), icon: Icon.nullable().optional() });
export const AddSectionToGroupBody = z.strictObject({ sectionId: IdSchema });
/** Groups sit among sections, so an anchor may name either. */
const GroupAnchor = z.strictObject({ type: z.enum(['site-section', 'site-section-group']), id: IdSchema });
export const MoveSectionGroupBody = z.strictObject({
  position: z.strictObject({ before: GroupAnchor.optional(), after: GroupAnchor.optional() }),
});

export const CreateSiteSpaceBody = z.strictObject({ spaceId: IdSchema, sectionId: IdSchema.optional() });
export const UpdateSiteSpaceBody = patchBody({
  path: SitePath.optional(),
  condition: Condition.nullable().optional(),
  spaceId: IdSchema.optional(),
});
const SiteSpaceAnchor = z.strictObject({ type: z.literal('site-space'), siteSpace: IdSchema });
export const MoveSiteSpaceBody = z.strictObject({
  position: z.strictObject({ before: SiteSpaceAnchor.optional(), after: SiteSpaceAnchor.optional() }),
});
