import { z } from 'zod';
import { IdSchema, text } from './common';

/**
 * Customization of a published site (SiteCustomizationSettings). Enum values the
 * specification leaves open follow the public platform's, so settings exported from it
 * validate here unchanged.
 */

/** A URL an image or link may point at: http(s) or a path on the site. Never `javascript:` or `data:`. */
export const SafeUrlSchema = text(2048, 1).refine(
  (s) => /^https?:\/\/[^\s]+$/i.test(s) || /^\/(?!\/)[^\s]*$/.test(s),
  'must be an http(s) URL or a path starting with /',
);

const Color = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hex color such as #3b82f6');
export const ThemedColorSchema = z.strictObject({ light: Color, dark: Color });
export const ThemedUrlSchema = z.strictObject({ light: SafeUrlSchema, dark: SafeUrlSchema.optional() });

/** Where a header, footer or announcement link goes. */
export const ContentReferenceSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('url'), url: SafeUrlSchema }),
    z.strictObject({ kind: z.literal('page'), page: IdSchema, space: IdSchema.optional() }),
    z.strictObject({ kind: z.literal('space'), space: IdSchema }),
    z.strictObject({ kind: z.literal('site-section'), siteSection: IdSchema }),
  ])
  .meta({ id: 'CustomizationContentReference' });
export type ContentReference = z.infer<typeof ContentReferenceSchema>;

const LinkTitle = text(128, 1);
const Condition = text(1000, 1);

export const StylingSchema = z.strictObject({
  theme: z.enum(['clean', 'muted', 'bold', 'gradient']),
  primaryColor: ThemedColorSchema,
  tint: z.strictObject({ color: ThemedColorSchema }).optional(),
  infoColor: ThemedColorSchema,
  successColor: ThemedColorSchema,
  warningColor: ThemedColorSchema,
  dangerColor: ThemedColorSchema,
  corners: z.enum(['straight', 'rounded', 'circular']),
  depth: z.enum(['subtle', 'flat']),
  links: z.enum(['default', 'accent']),
  font: text(64, 1),
  monospaceFont: text(64, 1),
  icons: z.enum(['regular', 'solid', 'duotone', 'light', 'thin']),
  sidebar: z.strictObject({ background: z.enum(['default', 'filled']), list: z.enum(['default', 'pill', 'line']) }),
  search: z.enum(['prominent', 'subtle']),
});

/** An icon per theme, an emoji, or nothing (the site's initial is drawn). */
export const FaviconSchema = z
  .strictObject({ icon: ThemedUrlSchema.optional(), emoji: text(16, 1).optional() })
  .refine((f) => !(f.icon && f.emoji), 'must be either an icon or an emoji');

const HeaderLinkSchema = z.strictObject({
  title: LinkTitle,
  style: z.enum(['link', 'button-primary', 'button-secondary']).optional(),
  to: ContentReferenceSchema.nullable().optional(),
  links: z
    .array(z.strictObject({ title: LinkTitle, to: ContentReferenceSchema }))
    .max(20)
    .optional(),
  condition: Condition.nullable().optional(),
});

const Enabled = z.strictObject({ enabled: z.boolean() });

/** Every field of SiteCustomizationSettings, as a PUT sends it and a GET answers it. */
const settingsShape = {
  title: text(128, 2).optional(),
  styling: StylingSchema,
  favicon: FaviconSchema,
  header: z.strictObject({
    logo: ThemedUrlSchema.optional(),
    links: z.array(HeaderLinkSchema).max(20),
  }),
  footer: z.strictObject({
    logo: ThemedUrlSchema.optional(),
    groups: z
      .array(z.strictObject({ title: LinkTitle, links: z.array(z.strictObject({ title: LinkTitle, to: ContentReferenceSchema })).max(30) }))
      .max(10),
    copyright: text(512).optional(),
  }),
  announcement: z.strictObject({
    enabled: z.boolean(),
    message: text(512),
    link: z.strictObject({ title: LinkTitle, to: ContentReferenceSchema }).optional(),
    style: z.enum(['info', 'warning', 'danger', 'success']),
  }),
  themes: z.strictObject({ default: z.enum(['light', 'dark']), toggeable: z.boolean() }),
  pdf: Enabled,
  feedback: Enabled,
  advancedCustomization: Enabled,
  pagination: Enabled,
  trademark: Enabled,
  ai: z.strictObject({ mode: z.enum(['none', 'search', 'assistant']) }),
  git: z.strictObject({ showEditLink: z.boolean() }),
  pageActions: z.strictObject({ externalAI: z.boolean(), markdown: z.boolean(), mcp: z.boolean() }),
  externalLinks: z.strictObject({ target: z.enum(['self', 'blank']) }),
  privacyPolicy: z.strictObject({ url: SafeUrlSchema.optional() }),
  socialPreview: z.strictObject({ url: SafeUrlSchema.optional() }),
  insights: z.strictObject({ trackingCookie: z.boolean() }),
};

export const SiteCustomizationSettingsSchema = z.strictObject(settingsShape).meta({ id: 'SiteCustomizationSettings' });
export type SiteCustomizationSettings = z.infer<typeof SiteCustomizationSettingsSchema>;

/**
 * PUT body: the favicon is required; other fields left out keep their defaults, so a
 * client may send only what it cares about.
 */
export const PutSiteCustomizationBody = z.strictObject({
  ...Object.fromEntries(Object.entries(settingsShape).map(([k, v]) => [k, k === 'favicon' ? v : (v as z.ZodType).optional()])),
}) as unknown as z.ZodType<Partial<SiteCustomizationSettings> & Pick<SiteCustomizationSettings, 'favicon'>>;

/** A partial styling override: any subset of the styling fields. */
const StylingOverride = z.strictObject(
  Object.fromEntries(Object.entries(StylingSchema.shape).map(([k, v]) => [k, (v as z.ZodType).optional()])) as {
    [K in keyof typeof StylingSchema.shape]: z.ZodOptional<(typeof StylingSchema.shape)[K]>;
  },
);

/**
 * PATCH body of a site space's customization: overrides of the site's settings. A field
 * set to null removes its override (the site's value shows again; for `title`, the
 * content's title).
 */
export const PatchSiteSpaceCustomizationBody = z
  .strictObject({
    title: text(128, 2).nullable().optional(),
    styling: StylingOverride.nullable().optional(),
    favicon: FaviconSchema.nullable().optional(),
    header: z
      .strictObject({ logo: ThemedUrlSchema.nullable().optional(), links: settingsShape.header.shape.links.optional() })
      .nullable()
      .optional(),
    footer: settingsShape.footer.partial().nullable().optional(),
    announcement: settingsShape.announcement.partial().nullable().optional(),
    themes: settingsShape.themes.partial().nullable().optional(),
    pagination: Enabled.nullable().optional(),
    feedback: Enabled.nullable().optional(),
    pageActions: settingsShape.pageActions.partial().nullable().optional(),
    externalLinks: settingsShape.externalLinks.nullable().optional(),
    socialPreview: settingsShape.socialPreview.nullable().optional(),
    privacyPolicy: settingsShape.privacyPolicy.nullable().optional(),
  })
  .refine((o) => Object.keys(o).length > 0, 'must set at least one field');
export type PatchSiteSpaceCustomizationBody = z.infer<typeof PatchSiteSpaceCustomizationBody>;

export const CustomizationQuery = z.object({
  unmasked: z.enum(['true', 'false']).optional().meta({ description: 'Deprecated; accepted and ignored.' }),
});

/** The settings of a site nobody has customized yet. */
export function defaultCustomization(): SiteCustomizationSettings {
  const c = (light: string, dark: string) => ({ light, dark });
  return {
    styling: {
      theme: 'clean',
      primaryColor: c('#346ddb', '#6d9cf5'),
      infoColor: c('#787878', '#a3a3a3'),
      successColor: c('#02a05b', '#3fbf83'),
      warningColor: c('#d97706', '#f2a33a'),
      dangerColor: c('#dc2626', '#f26464'),
      corners: 'rounded',
      depth: 'subtle',
      links: 'default',
      font: 'Inter',
      monospaceFont: 'IBMPlexMono',
      icons: 'regular',
      sidebar: { background: 'default', list: 'default' },
      search: 'prominent',
    },
    favicon: {},
    header: { links: [] },
    footer: { groups: [] },
    announcement: { enabled: false, message: '', style: 'info' },
    themes: { default: 'light', toggeable: true },
    pdf: { enabled: false },
    feedback: { enabled: false },
    advancedCustomization: { enabled: false },
    pagination: { enabled: true },
    trademark: { enabled: true },
    ai: { mode: 'none' },
    git: { showEditLink: false },
    pageActions: { externalAI: false, markdown: true, mcp: false },
    externalLinks: { target: 'self' },
    privacyPolicy: {},
    socialPreview: {},
    insights: { trackingCookie: false },
  };
}
