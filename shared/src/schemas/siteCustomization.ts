import { z } from 'zod';
import { IdSchema, text } from './common';
import { unsupported } from './siteFields';

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
const NO_LOCALIZED = unsupported('localized texts are not supported by this server');
const NO_ASSISTANT = unsupported('the AI assistant is not supported by this server');

/** A code highlighting theme by name (`default-light`, `github-dark`, …), per color scheme. */
const CodeThemeName = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be a code theme name such as github-light')
  .max(64);
const ThemedCodeTheme = z.strictObject({ light: CodeThemeName, dark: CodeThemeName });

export const UI_LOCALES = ['en', 'fr', 'es', 'zh', 'ja', 'de', 'nl', 'no', 'pt-br', 'ru'] as const;
export const PAGE_ACTIONS = ['assistant', 'external-ai', 'markdown', 'mcp', 'git', 'pdf'] as const;
export const SOCIAL_PLATFORMS = [
  'twitter',
  'instagram',
  'facebook',
  'linkedin',
  'github',
  'discord',
  'slack',
  'youtube',
  'tiktok',
  'reddit',
  'bluesky',
  'mastodon',
  'threads',
  'medium',
] as const;

/** A font by name; the public client may also send a custom font definition, which this server does not host. */
const FontName = z
  .string({
    error: (issue) =>
      issue.input !== null && typeof issue.input === 'object'
        ? 'custom font definitions are not supported by this server: name a font such as Inter'
        : undefined,
  })
  .min(1)
  .max(64)
  .refine((s) => !s.includes('\u0000'), 'must not contain NUL characters');

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
  font: FontName,
  monospaceFont: FontName,
  icons: z.enum(['regular', 'solid', 'duotone', 'light', 'thin']),
  sidebar: z.strictObject({ background: z.enum(['default', 'filled']), list: z.enum(['default', 'pill', 'line']) }),
  search: z.enum(['prominent', 'subtle']),
  /** Font of headings; absent (or null when written) uses `font`. */
  headingFont: FontName.nullable().optional(),
  /** Deprecated by `tint`; kept as set. */
  background: z.enum(['plain', 'match']).optional(),
  codeTheme: z.strictObject({ default: ThemedCodeTheme, openapi: ThemedCodeTheme }).optional(),
});

/** An icon per theme, an emoji, or nothing (the site's initial is drawn). */
export const FaviconSchema = z
  .strictObject({ icon: ThemedUrlSchema.optional(), emoji: text(16, 1).optional() })
  .refine((f) => !(f.icon && f.emoji), 'must be either an icon or an emoji');

/** A titled link (footer, header menus, announcement). */
const ContentLinkSchema = z.strictObject({ title: LinkTitle, to: ContentReferenceSchema, localizedTitle: NO_LOCALIZED });

const HeaderLinkSchema = z.strictObject({
  title: LinkTitle,
  style: z.enum(['link', 'button-primary', 'button-secondary']).optional(),
  to: ContentReferenceSchema.nullable().optional(),
  links: z.array(ContentLinkSchema).max(20).optional(),
  condition: Condition.nullable().optional(),
  localizedTitle: NO_LOCALIZED,
});

const Enabled = z.strictObject({ enabled: z.boolean() });

/**
 * Page actions: the specification's booleans, and `items`, the ordered list the public
 * client sends. Either may be written; reads answer both, kept in agreement (see
 * `withPageActions` on the server).
 */
const PageActionsSchema = z.strictObject({
  externalAI: z.boolean().optional(),
  markdown: z.boolean().optional(),
  mcp: z.boolean().optional(),
  items: z
    .array(z.enum(PAGE_ACTIONS))
    .max(PAGE_ACTIONS.length)
    .refine((a) => new Set(a).size === a.length, 'must not repeat an action')
    .optional(),
});

const SocialAccountSchema = z.strictObject({
  platform: z.enum(SOCIAL_PLATFORMS),
  handle: text(128, 1),
  display: z.strictObject({ footer: z.boolean().optional(), header: z.boolean().optional() }).optional(),
});

/** Every field of SiteCustomizationSettings, as a PUT sends it and a GET answers it. */
const settingsShape = {
  title: text(128, 2).optional(),
  localizedTitle: NO_LOCALIZED,
  styling: StylingSchema,
  /** The language of the site's own words; deprecated by the public client, kept as set. */
  internationalization: z.strictObject({ locale: z.enum(UI_LOCALES) }),
  favicon: FaviconSchema,
  header: z.strictObject({
    /** Legacy header style, superseded by `styling.theme`; kept as set. */
    preset: z.enum(['default', 'bold', 'contrast', 'custom', 'none']).optional(),
    logo: ThemedUrlSchema.optional(),
    /** Where the site title or logo leads. */
    primaryLink: ContentReferenceSchema.optional(),
    backgroundColor: ThemedColorSchema.optional(),
    linkColor: ThemedColorSchema.optional(),
    links: z.array(HeaderLinkSchema).max(20),
  }),
  footer: z.strictObject({
    logo: ThemedUrlSchema.optional(),
    groups: z.array(z.strictObject({ title: LinkTitle, links: z.array(ContentLinkSchema).max(30), localizedTitle: NO_LOCALIZED })).max(10),
    copyright: text(512).optional(),
  }),
  announcement: z.strictObject({
    enabled: z.boolean(),
    message: text(512),
    link: ContentLinkSchema.optional(),
    style: z.enum(['info', 'warning', 'danger', 'success']),
    localizedMessage: NO_LOCALIZED,
  }),
  themes: z.strictObject({ default: z.enum(['light', 'dark', 'system']), toggeable: z.boolean() }),
  pdf: Enabled,
  feedback: Enabled,
  advancedCustomization: Enabled,
  pagination: Enabled,
  trademark: Enabled,
  ai: z.strictObject({
    mode: z.enum(['none', 'search', 'assistant']),
    greeting: NO_ASSISTANT,
    localizedGreeting: NO_ASSISTANT,
    suggestions: NO_ASSISTANT,
    instructions: NO_ASSISTANT,
  }),
  git: z.strictObject({ showEditLink: z.boolean() }),
  pageActions: PageActionsSchema,
  externalLinks: z.strictObject({ target: z.enum(['self', 'blank']) }),
  privacyPolicy: z.strictObject({ url: SafeUrlSchema.optional() }),
  socialPreview: z.strictObject({ url: SafeUrlSchema.optional() }),
  /** Accounts of the site on social platforms. */
  socialAccounts: z.array(SocialAccountSchema).max(20),
  insights: z.strictObject({ trackingCookie: z.boolean() }),
};

export const SiteCustomizationSettingsSchema = z.strictObject(settingsShape).meta({ id: 'SiteCustomizationSettings' });
export type SiteCustomizationSettings = z.infer<typeof SiteCustomizationSettingsSchema>;

/**
 * A setting a PUT may leave out, in whole or in part: an object's fields may each be
 * left out too (`styling: {primaryColor}`), and take their defaults when read.
 */
function settingLeftOut(schema: z.ZodType): z.ZodType {
  const inner = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
  if (!(inner instanceof z.ZodObject)) return inner.optional();
  const shape = Object.fromEntries(Object.entries(inner.shape).map(([k, v]) => [k, settingLeftOut(v as z.ZodType)]));
  return z.strictObject(shape).optional();
}

/**
 * PUT body: the favicon is required; other fields left out keep their defaults, so a
 * client may send only what it cares about.
 */
export const PutSiteCustomizationBody = z.strictObject({
  ...Object.fromEntries(Object.entries(settingsShape).map(([k, v]) => [k, k === 'favicon' ? v : settingLeftOut(v as z.ZodType)])),
}) as unknown as z.ZodType<Partial<SiteCustomizationSettings> & Pick<SiteCustomizationSettings, 'favicon'>>;

type Overridable<T extends z.ZodRawShape> = { [K in keyof T]: z.ZodOptional<z.ZodNullable<T[K]>> };

/** Overrides of an object's fields: each may be left out, set, or set to null (falls back to the site's). */
function overridable<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject(
    Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, (v as z.ZodType).nullable().optional()])) as unknown as Overridable<T>,
  );
}

const StylingOverride = overridable({
  ...StylingSchema.shape,
  sidebar: overridable(StylingSchema.shape.sidebar.shape),
  codeTheme: overridable({ default: ThemedCodeTheme, openapi: ThemedCodeTheme }),
});

/**
 * PATCH body of a site space's customization: overrides of the site's settings. A field
 * set to null removes its override (the site's value shows again; for `title`, the
 * content's title).
 */
export const PatchSiteSpaceCustomizationBody = z
  .strictObject({
    title: text(128, 2).nullable().optional(),
    localizedTitle: NO_LOCALIZED,
    styling: StylingOverride.nullable().optional(),
    internationalization: overridable(settingsShape.internationalization.shape).nullable().optional(),
    favicon: FaviconSchema.nullable().optional(),
    header: overridable(settingsShape.header.shape).nullable().optional(),
    footer: overridable(settingsShape.footer.shape).nullable().optional(),
    announcement: settingsShape.announcement.partial().nullable().optional(),
    themes: overridable(settingsShape.themes.shape).nullable().optional(),
    pagination: overridable(Enabled.shape).nullable().optional(),
    feedback: overridable(Enabled.shape).nullable().optional(),
    trademark: overridable(Enabled.shape).nullable().optional(),
    pageActions: PageActionsSchema.partial().nullable().optional(),
    externalLinks: overridable(settingsShape.externalLinks.shape).nullable().optional(),
    socialPreview: overridable(settingsShape.socialPreview.shape).nullable().optional(),
    privacyPolicy: overridable(settingsShape.privacyPolicy.shape).nullable().optional(),
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
      background: 'plain',
      codeTheme: { default: c('default-light', 'default-dark'), openapi: c('default-light', 'default-dark') },
    },
    internationalization: { locale: 'en' },
    favicon: {},
    header: { preset: 'default', links: [] },
    footer: { groups: [] },
    announcement: { enabled: false, message: '', style: 'info' },
    themes: { default: 'light', toggeable: true },
    pdf: { enabled: false },
    // "Was this page helpful?" ends every page unless a site turns it off.
    feedback: { enabled: true },
    advancedCustomization: { enabled: false },
    pagination: { enabled: true },
    trademark: { enabled: true },
    ai: { mode: 'none' },
    git: { showEditLink: false },
    pageActions: { externalAI: false, markdown: true, mcp: false, items: ['markdown'] },
    externalLinks: { target: 'self' },
    privacyPolicy: {},
    socialPreview: {},
    socialAccounts: [],
    insights: { trackingCookie: false },
  };
}
