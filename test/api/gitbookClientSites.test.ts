import {
  CustomizationAIMode,
  CustomizationBackground,
  CustomizationCodeTheme,
  CustomizationCorners,
  CustomizationDefaultFont,
  CustomizationDefaultMonospaceFont,
  CustomizationDefaultThemeMode,
  CustomizationDepth,
  CustomizationHeaderPreset,
  CustomizationIconsStyle,
  CustomizationLinksStyle,
  CustomizationLocale,
  CustomizationPageActionType,
  CustomizationSearchStyle,
  CustomizationSidebarBackgroundStyle,
  CustomizationSidebarListStyle,
  CustomizationTheme,
  GitBookAPI,
  MemberRole,
  type SiteCustomizationSettingsInput,
  SiteExternalLinksTarget,
  SiteRedirectOrderBy,
  SiteSocialAccountPlatform,
  SiteType,
  SiteVisibility,
  type TranslationLanguage,
} from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveServer } from '../../sync-server/src/testing/syncClients';
import { clientFor, refusal, templatedSpace } from './clientHarness';

/**
 * Every site operation called through the public client of this API family
 * (`@gitbook/api`), pointed at our server by its endpoint alone: sites, sections, section
 * groups, site spaces, customization, redirects, the visitor schema and the published
 * content site, with the bodies, query names and answers that client has.
 */

let s: LiveServer;
let api: GitBookAPI;
let reader: GitBookAPI;
let outsider: GitBookAPI;
let orgId: string;

beforeAll(async () => {
  s = await LiveServer.start();
  const fixture = await s.t.org(['read']);
  orgId = fixture.orgId;
  api = clientFor(s, fixture.admin.token);
  reader = clientFor(s, fixture.members[0]!.token);
  outsider = clientFor(s, (await s.t.org()).admin.token);
});
afterAll(async () => s?.close());

const spaceWithPages = (title: string) => templatedSpace(api, orgId, title);

async function newSite(title: string, spaces: string[]) {
  return (await api.orgs.createSite(orgId, { title, spaces })).data;
}

/** A published page or redirect of a site, fetched from the local port (published URLs name the public address). */
function visit(published: string, path = '') {
  const url = new URL(published);
  return fetch(`http://127.0.0.1:${s.running.port}${url.pathname}${path}`, { redirect: 'manual' });
}

describe('site operations through the @gitbook/api client', () => {
  it('creates, lists, reads, updates, publishes and deletes sites', async () => {
    const space = await spaceWithPages('Client guide');
    const { data: site } = await api.orgs.createSite(orgId, {
      title: 'Client Docs',
      type: SiteType.Basic,
      visibility: SiteVisibility.Unlisted,
      spaces: [space.id],
    });
    expect(site).toMatchObject({
      object: 'site',
      type: 'basic',
      appliedType: 'basic',
      defaultLevel: 'inherit',
      visibility: 'unlisted',
      siteSpaces: 1,
      published: false,
    });
    expect(site.urls.preview).toBe(site.urls.published);
    expect(site.permissions).toMatchObject({ view: true, access: true, admin: true, editAdaptiveSchema: true, installIntegration: false });

    // The client sends `type` as an array (`type=basic&type=premium`): one value or several.
    const { data: listed } = await api.orgs.listSites(orgId, {
      type: [SiteType.Basic, SiteType.Premium],
      space: space.id,
      title: 'client',
      limit: 10,
    });
    expect(listed.items.map((x) => x.id)).toEqual([site.id]);
    expect((await api.orgs.listSites(orgId, { type: [SiteType.Sponsored], space: space.id })).data.items).toEqual([]);
    expect((await api.orgs.listSites(orgId, { published: true, space: space.id })).data.items).toEqual([]);

    const { data: asReader } = await reader.orgs.getSiteById(orgId, site.id);
    expect(asReader.permissions).toMatchObject({ view: true, access: true, edit: false, admin: false, editAdaptiveSchema: false });
    expect((await refusal(reader.orgs.updateSiteById(orgId, site.id, { title: 'Mine' }))).code).toBe(403);

    const { data: updated } = await api.orgs.updateSiteById(orgId, site.id, {
      title: 'Client documentation',
      basename: 'client-docs',
      adaptiveContent: { enabled: true },
      defaultLevel: 'inherit',
      proxy: null,
    });
    expect(updated).toMatchObject({ title: 'Client documentation', basename: 'client-docs', adaptiveContent: { enabled: true } });
    expect(await refusal(api.orgs.updateSiteById(orgId, site.id, { styleguide: space.id }))).toEqual({
      code: 400,
      message: 'Invalid body field "styleguide": style guides are not supported by this server.',
    });
    const level = await refusal(api.orgs.updateSiteById(orgId, site.id, { defaultLevel: MemberRole.Read }));
    expect(level.code).toBe(400);
    expect(level.message).toMatch(/^Invalid body field "defaultLevel": sites have no access list of their own/);

    const { data: published } = await api.orgs.publishSite(orgId, site.id);
    expect('object' in published && published.published).toBe(true);
    expect((await visit(updated.urls.published!)).status).toBe(200);

    await api.orgs.deleteSiteById(orgId, site.id);
    await api.orgs.deleteSiteById(orgId, site.id);
    expect((await refusal(api.orgs.getSiteById(orgId, site.id))).code).toBe(404);
  });

  it('sets the visitor schema, suggests conditions from it, and answers the published content site', async () => {
    const space = await spaceWithPages('Adaptive guide');
    const site = await newSite('Adaptive', [space.id]);
    const { data: schema } = await api.orgs.updateSiteAdaptiveSchema(orgId, site.id, {
      jsonSchema: {
        type: 'object',
        properties: {
          unsigned: {
            type: 'object',
            description: 'Unsigned claims of the site visitor.',
            properties: { beta: { type: 'boolean', description: 'Beta tester' } },
            additionalProperties: false,
          },
          plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan' },
        },
        additionalProperties: false,
      },
    });
    expect(schema.object).toBe('site-adaptive-schema');
    expect((await reader.orgs.getSiteAdaptiveSchema(orgId, site.id)).data.jsonSchema).toEqual(schema.jsonSchema);
    const { data: conditions } = await api.orgs.listSiteAdaptiveTemplateConditions(orgId, site.id);
    expect(conditions.items.map((x) => x.condition)).toEqual(
      expect.arrayContaining(['visitor.claims.plan == "pro"', 'visitor.claims.unsigned.beta']),
    );

    const { data: content } = await api.orgs.getPublishedContentSite(orgId, site.id);
    expect(content.object).toBe('published-content-site');
    expect(content.site.id).toBe(site.id);
    expect(content.structure.type).toBe('siteSpaces');
    expect(content.structure.structure[0]).toMatchObject({ object: 'site-space', draft: false, space: { id: space.id } });
    expect(content.customizations.site.pageActions.items).toEqual(['markdown']);

    // A share-link site opens to an outsider who has its key, and to no one else.
    const { data: shared } = await api.orgs.updateSiteById(orgId, site.id, { visibility: SiteVisibility.ShareLink });
    await api.orgs.publishSite(orgId, site.id);
    const shareKey = (shared as { shareKey?: string }).shareKey!;
    expect((await outsider.orgs.getPublishedContentSite(orgId, site.id, { shareKey })).data.site.id).toBe(site.id);
    expect((await refusal(outsider.orgs.getPublishedContentSite(orgId, site.id))).code).toBe(404);
  });

  it('adds sections (to a group, or with a new space from a template), lists, patches, moves and deletes them', async () => {
    const [guide, reference, sdk] = [await spaceWithPages('Guide'), await spaceWithPages('Reference'), await spaceWithPages('SDK')];
    const site = await newSite('Sectioned', [guide.id]);
    const { data: refSection } = await api.orgs.addSectionToSite(orgId, site.id, {
      spaceId: reference.id,
      title: 'Reference',
      icon: null,
      draft: false,
    });
    expect(refSection).toMatchObject({
      object: 'site-section',
      title: 'Reference',
      draft: false,
      siteSpaces: [{ space: { id: reference.id } }],
    });

    // `spaceId: null` makes a new space, here filled from a template.
    const { data: tutorials } = await api.orgs.addSectionToSite(orgId, site.id, {
      spaceId: null,
      title: 'Tutorials',
      template: { id: 'getting-started' },
    });
    const madeSpace = tutorials.siteSpaces[0]!.space;
    expect(madeSpace.title).toBe('Tutorials');
    expect((await api.spaces.listPages(madeSpace.id)).data.pages.map((p) => p.title)).toContain('Welcome');
    const unknownTemplate = await refusal(api.orgs.addSectionToSite(orgId, site.id, { spaceId: null, template: { id: 'nope' } }));
    expect(unknownTemplate.code).toBe(400);
    expect(unknownTemplate.message).toMatch(/^Invalid body field "template\.id": /);

    const { data: group } = await api.orgs.addSectionGroupToSite(orgId, site.id, { title: 'APIs', icon: null, draft: false });
    const { data: sdkSection } = await api.orgs.addSectionToSite(orgId, site.id, { spaceId: sdk.id, siteSectionGroupId: group.id });
    expect(sdkSection.sectionGroup).toBe(group.id);

    const { data: sections } = await reader.orgs.listSiteSections(orgId, site.id, { limit: 10 });
    expect(sections.items).toHaveLength(4);
    expect(sections.items.every((x) => x.draft === false)).toBe(true);

    const { data: moved } = await api.orgs.updateSiteSectionById(orgId, site.id, sdkSection.id, {
      siteSectionGroupId: null,
      description: 'Client libraries',
      condition: null,
      draft: false,
    });
    expect(moved.sectionGroup).toBeUndefined();
    expect(moved.description).toBe('Client libraries');
    const { data: back } = await api.orgs.updateSiteSectionById(orgId, site.id, sdkSection.id, { siteSectionGroupId: group.id });
    expect(back.sectionGroup).toBe(group.id);
    const localized = await refusal(
      api.orgs.updateSiteSectionById(orgId, site.id, refSection.id, {
        localizedTitle: { fr: 'Référence' } as Record<TranslationLanguage, string>,
      }),
    );
    expect(localized).toEqual({
      code: 400,
      message: 'Invalid body field "localizedTitle": localized titles and descriptions are not supported by this server.',
    });
    expect((await refusal(api.orgs.updateSiteSectionById(orgId, site.id, refSection.id, { draft: true }))).code).toBe(400);

    const order = async () =>
      (await api.orgs.getPublishedContentSite(orgId, site.id)).data.structure.structure.map((x) => ('id' in x ? x.id : ''));
    const first = (await order())[0]!;
    await api.orgs.moveSiteSection(orgId, site.id, tutorials.id, { position: { before: { type: 'site-section', siteSection: first } } });
    expect((await order())[0]).toBe(tutorials.id);
    // Without a position the section goes last.
    const { data: last } = await api.orgs.moveSiteSection(orgId, site.id, tutorials.id, {});
    expect(last.id).toBe(tutorials.id);
    expect((await order()).at(-1)).toBe(tutorials.id);

    await api.orgs.deleteSiteSectionById(orgId, site.id, tutorials.id);
    await api.orgs.deleteSiteSectionById(orgId, site.id, tutorials.id);
    expect((await order()).includes(tutorials.id)).toBe(false);
  });

  it('groups sections, nests groups, lists, patches, moves and deletes groups', async () => {
    const [a, b, c] = [await spaceWithPages('Alpha'), await spaceWithPages('Beta'), await spaceWithPages('Gamma')];
    const site = await newSite('Grouped', [a.id]);
    const { data: betaSection } = await api.orgs.addSectionToSite(orgId, site.id, { spaceId: b.id, title: 'Beta' });
    const { data: gammaSection } = await api.orgs.addSectionToSite(orgId, site.id, { spaceId: c.id, title: 'Gamma' });

    const { data: outer } = await api.orgs.addSectionGroupToSite(orgId, site.id, { title: 'More', sections: [betaSection.id] });
    expect(outer).toMatchObject({
      object: 'site-section-group',
      draft: false,
      sections: [{ id: betaSection.id }],
      children: [{ id: betaSection.id }],
    });
    const { data: inner } = await api.orgs.addSectionGroupToSite(orgId, site.id, { title: 'Even more', sections: [gammaSection.id] });
    const { data: nested } = await api.orgs.updateSiteSectionGroupById(orgId, site.id, inner.id, {
      parentSectionGroupId: outer.id,
      icon: 'book',
      draft: false,
    });
    expect(nested).toMatchObject({ sectionGroup: outer.id, icon: 'book' });
    const cycle = await refusal(api.orgs.updateSiteSectionGroupById(orgId, site.id, outer.id, { parentSectionGroupId: inner.id }));
    expect(cycle.code).toBe(400);
    expect(cycle.message).toMatch(/^Invalid body field "parentSectionGroupId": /);

    const { data: groups } = await reader.orgs.listSiteSectionGroups(orgId, site.id, { limit: 10 });
    const listedOuter = groups.items.find((g) => g.id === outer.id)!;
    expect(listedOuter.children.map((x) => [x.object, x.id])).toEqual([
      ['site-section', betaSection.id],
      ['site-section-group', inner.id],
    ]);
    expect(listedOuter.sections.map((x) => x.id)).toEqual([betaSection.id]);

    const { data: toRoot } = await api.orgs.updateSiteSectionGroupById(orgId, site.id, inner.id, { parentSectionGroupId: null });
    expect(toRoot.sectionGroup).toBeUndefined();
    const rootOrder = async () =>
      (await api.orgs.getPublishedContentSite(orgId, site.id)).data.structure.structure.map((x) => ('id' in x ? x.id : ''));
    await api.orgs.moveSiteSectionGroup(orgId, site.id, inner.id, {
      position: { before: { type: 'site-section-group', id: outer.id } },
    });
    expect((await rootOrder()).slice(-2)).toEqual([inner.id, outer.id]);
    await api.orgs.moveSiteSectionGroup(orgId, site.id, inner.id, {});
    expect((await rootOrder()).at(-1)).toBe(inner.id);

    await api.orgs.deleteSiteSectionGroupById(orgId, site.id, outer.id);
    await api.orgs.deleteSiteSectionGroupById(orgId, site.id, outer.id);
    const { data: after } = await api.orgs.listSiteSections(orgId, site.id);
    expect(after.items.find((x) => x.id === betaSection.id)?.sectionGroup).toBeUndefined();
  });

  it('adds site spaces (with their own title, or a new space), lists, patches, moves and deletes them', async () => {
    const [one, two] = [await spaceWithPages('First space'), await spaceWithPages('Second space')];
    const site = await newSite('Variants', [one.id]);
    const { data: added } = await api.orgs.addSpaceToSite(orgId, site.id, {
      spaceId: two.id,
      title: 'Version 2',
      draft: false,
      pageId: null,
    });
    expect(added).toMatchObject({
      object: 'site-space',
      title: 'Version 2',
      path: 'version-2',
      draft: false,
      default: false,
      space: { id: two.id },
    });
    const { data: made } = await api.orgs.addSpaceToSite(orgId, site.id, { spaceId: null, title: 'Version 3' });
    expect(made.space.title).toBe('Version 3');
    expect(made.title).toBe('Version 3');

    const { data: defaults } = await reader.orgs.listSiteSpaces(orgId, site.id, { default: true });
    expect(defaults.items.map((x) => x.space.id)).toEqual([one.id]);
    const { data: others } = await reader.orgs.listSiteSpaces(orgId, site.id, { default: false, limit: 10 });
    expect(others.items.map((x) => x.id)).toEqual([added.id, made.id]);

    const { data: patched } = await api.orgs.updateSiteSpaceById(orgId, site.id, added.id, {
      path: 'v2',
      condition: 'visitor.claims.beta',
      pageId: null,
      hidden: false,
      draft: false,
    });
    expect(patched).toMatchObject({ path: 'v2', condition: 'visitor.claims.beta', title: 'Version 2' });
    expect((await api.orgs.updateSiteSpaceById(orgId, site.id, added.id, { condition: null })).data.condition).toBeUndefined();
    expect(await refusal(api.orgs.updateSiteSpaceById(orgId, site.id, added.id, { draft: true }))).toEqual({
      code: 400,
      message: 'Invalid body field "draft": drafts are not supported: site content is live as soon as it is added.',
    });
    expect((await refusal(api.orgs.updateSiteSpaceById(orgId, site.id, added.id, { pageId: 'AAAAAAAAAAAAAAAAAAAAAA' }))).message).toMatch(
      /^Invalid body field "pageId": custom home pages are not supported/,
    );
    expect((await refusal(api.orgs.updateSiteSpaceById(orgId, site.id, added.id, { hidden: true }))).code).toBe(400);

    const order = async () => (await api.orgs.listSiteSpaces(orgId, site.id)).data.items;
    await api.orgs.moveSiteSpace(orgId, site.id, made.id, { position: { before: { type: 'site-space', siteSpace: added.id } } });
    const published = await api.orgs.getPublishedContentSite(orgId, site.id);
    expect(published.data.structure.structure.map((x) => x.id)).toEqual([(await order())[0]!.id, made.id, added.id]);
    await api.orgs.moveSiteSpace(orgId, site.id, made.id, {});
    const again = await api.orgs.getPublishedContentSite(orgId, site.id);
    expect(again.data.structure.structure.at(-1)?.id).toBe(made.id);

    // Readers of the published site see the variant under the site space's own title.
    await api.orgs.publishSite(orgId, site.id);
    const html = await (await visit(site.urls.published!)).text();
    expect(html).toContain('Version 2');

    await api.orgs.deleteSiteSpaceById(orgId, site.id, made.id);
    await api.orgs.deleteSiteSpaceById(orgId, site.id, made.id);
    expect((await order()).map((x) => x.id)).not.toContain(made.id);
  });

  it('replaces site customization with every field the client type requires, and overrides it per site space', async () => {
    const space = await spaceWithPages('Styled');
    const site = await newSite('Styled site', [space.id]);
    const color = (light: string, dark: string) => ({ light, dark });
    const settings: SiteCustomizationSettingsInput = {
      title: 'Styled Docs',
      styling: {
        theme: CustomizationTheme.Muted,
        primaryColor: color('#0055ff', '#88aaff'),
        infoColor: color('#787878', '#a3a3a3'),
        successColor: color('#02a05b', '#3fbf83'),
        warningColor: color('#d97706', '#f2a33a'),
        dangerColor: color('#dc2626', '#f26464'),
        corners: CustomizationCorners.Straight,
        depth: CustomizationDepth.Flat,
        links: CustomizationLinksStyle.Accent,
        font: CustomizationDefaultFont.Roboto,
        headingFont: null,
        monospaceFont: CustomizationDefaultMonospaceFont.FiraCode,
        background: CustomizationBackground.Plain,
        icons: CustomizationIconsStyle.Duotone,
        codeTheme: {
          default: { light: CustomizationCodeTheme.GithubLight, dark: CustomizationCodeTheme.GithubDark },
          openapi: { light: CustomizationCodeTheme.DefaultLight, dark: CustomizationCodeTheme.DefaultDark },
        },
        sidebar: { background: CustomizationSidebarBackgroundStyle.Filled, list: CustomizationSidebarListStyle.Pill },
        search: CustomizationSearchStyle.Subtle,
      },
      internationalization: { locale: CustomizationLocale.Fr },
      favicon: { emoji: '📘' },
      header: {
        preset: CustomizationHeaderPreset.Default,
        primaryLink: { kind: 'url', url: 'https://example.com/home' },
        links: [{ title: 'Status', to: { kind: 'url', url: 'https://status.example.com' }, links: [] }],
      },
      footer: {
        groups: [{ title: 'Company', links: [{ title: 'About', to: { kind: 'url', url: 'https://example.com/about' } }] }],
        copyright: '© Styled',
      },
      themes: { default: CustomizationDefaultThemeMode.System, toggeable: true },
      feedback: { enabled: false },
      ai: { mode: CustomizationAIMode.None },
      advancedCustomization: { enabled: false },
      pageActions: { items: [CustomizationPageActionType.Mcp, CustomizationPageActionType.Markdown] },
      externalLinks: { target: SiteExternalLinksTarget.Blank },
      pagination: { enabled: true },
      trademark: { enabled: false },
      privacyPolicy: { url: 'https://example.com/privacy' },
      socialPreview: {},
      socialAccounts: [{ platform: SiteSocialAccountPlatform.Github, handle: 'styled', display: { footer: true, header: false } }],
      insights: { trackingCookie: false },
    };
    const { data: put } = await api.orgs.updateSiteCustomizationById(orgId, site.id, settings);
    const { headingFont: _unset, ...styling } = settings.styling;
    expect(put).toMatchObject({ ...settings, styling, pageActions: { items: ['mcp', 'markdown'] } });
    expect(put.pageActions).toMatchObject({ mcp: true, markdown: true, externalAI: false });
    const { data: read } = await reader.orgs.getSiteCustomizationById(orgId, site.id, { unmasked: false });
    expect(read).toEqual(put);

    // What a read answers goes back unchanged in a replace.
    const { data: renamed } = await api.orgs.updateSiteCustomizationById(orgId, site.id, { ...read, title: 'Renamed Docs' });
    expect(renamed).toEqual({ ...read, title: 'Renamed Docs' });
    expect(
      await refusal(
        api.orgs.updateSiteCustomizationById(orgId, site.id, { ...read, ai: { mode: CustomizationAIMode.Search, greeting: 'Hi' } }),
      ),
    ).toEqual({ code: 400, message: 'Invalid body field "ai.greeting": the AI assistant is not supported by this server.' });
    const customFont = { id: 'brand', custom: true, fontFamily: 'Brand Sans', fontFaces: [] };
    expect(
      await refusal(api.orgs.updateSiteCustomizationById(orgId, site.id, { ...read, styling: { ...read.styling, font: customFont } })),
    ).toEqual({
      code: 400,
      message: 'Invalid body field "styling.font": custom font definitions are not supported by this server: name a font such as Inter.',
    });

    // The published site takes the settings (`system` mode renders light without script).
    await api.orgs.publishSite(orgId, site.id);
    const page = await visit(site.urls.published!);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-theme="light"');
    expect(html).toContain('<a class="brand" href="https://example.com/home">');

    const siteSpace = (await api.orgs.listSiteSpaces(orgId, site.id)).data.items[0]!;
    const { data: over } = await api.orgs.overrideSiteSpaceCustomizationById(orgId, site.id, siteSpace.id, {
      title: 'Guide',
      styling: { theme: null, primaryColor: color('#112233', '#445566'), codeTheme: { default: null } },
      trademark: { enabled: true },
      footer: { copyright: null },
      themes: { default: CustomizationDefaultThemeMode.Dark, toggeable: null },
    });
    expect(over).toMatchObject({ title: 'Guide', trademark: { enabled: true }, themes: { default: 'dark', toggeable: true } });
    expect(over.styling).toMatchObject({ theme: 'muted', primaryColor: { light: '#112233' }, codeTheme: settings.styling.codeTheme });
    expect(over.footer.copyright).toBe('© Styled');
    expect((await reader.orgs.getSiteSpaceCustomizationById(orgId, site.id, siteSpace.id, { unmasked: false })).data).toEqual(over);

    await api.orgs.deleteSiteSpaceCustomizationById(orgId, site.id, siteSpace.id);
    expect((await api.orgs.getSiteSpaceCustomizationById(orgId, site.id, siteSpace.id)).data).toEqual(renamed);
  });

  it('makes redirects to sections, site spaces, pages and outside, with wildcards, and the site follows them', async () => {
    const [guide, apiSpace] = [await spaceWithPages('Guide'), await spaceWithPages('API')];
    const site = await newSite('Moved docs', [guide.id]);
    const { data: apiSection } = await api.orgs.addSectionToSite(orgId, site.id, { spaceId: apiSpace.id, title: 'API' });
    const apiSiteSpace = apiSection.siteSpaces[0]!;
    const guideSiteSpace = (await api.orgs.listSiteSpaces(orgId, site.id)).data.items.find((x) => x.space.id === guide.id)!;
    // Document pages have a path; the client's page union also holds kinds that do not.
    const faq = (await api.spaces.listPages(guide.id)).data.pages.find((p) => p.title === 'FAQ') as { id: string; path: string };
    await api.orgs.publishSite(orgId, site.id);

    const { data: toSection } = await api.orgs.createSiteRedirect(orgId, site.id, {
      source: '/old-api',
      destination: { kind: 'site-section', siteSectionId: apiSection.id },
    });
    expect(toSection).toMatchObject({ object: 'site-redirect', draft: false, permanent: true, captureWildcard: false });
    // `external` is how the client names a destination outside the site.
    const { data: external } = await api.orgs.createSiteRedirect(orgId, site.id, {
      source: '/blog',
      destination: { kind: 'external', url: 'https://blog.example.com/' },
      permanent: false,
    });
    expect(external).toMatchObject({ destination: { kind: 'external', url: 'https://blog.example.com/' }, permanent: false });
    const { data: wildcard } = await api.orgs.createSiteRedirect(orgId, site.id, {
      // A versioned docs path; `/v1/` itself belongs to the server's API and is refused as a source.
      source: '/docs-v1/*',
      destination: { kind: 'site-space', siteSpaceId: apiSiteSpace.id },
      captureWildcard: true,
      draft: false,
    });
    expect(wildcard.captureWildcard).toBe(true);
    // A page named by its path in a space the site publishes is kept as that page.
    const { data: byPath } = await api.orgs.createSiteRedirect(orgId, site.id, {
      source: '/help',
      destination: { kind: 'path', spaceId: guide.id, path: faq.path },
    });
    expect(byPath.destination).toEqual({ kind: 'site-page', siteSpaceId: guideSiteSpace.id, pageId: faq.id });
    const { data: toPage } = await api.orgs.createSiteRedirect(orgId, site.id, {
      source: '/questions',
      destination: { kind: 'site-page', siteSpaceId: guideSiteSpace.id, pageId: faq.id },
    });
    expect(
      await refusal(
        api.orgs.createSiteRedirect(orgId, site.id, {
          source: '/later',
          destination: { kind: 'external', url: 'https://x.example.com/' },
          draft: true,
        }),
      ),
    ).toEqual({ code: 400, message: 'Invalid body field "draft": drafts are not supported: site content is live as soon as it is added.' });

    const { data: edited } = await api.orgs.updateSiteRedirectById(orgId, site.id, external.id, {
      destination: { kind: 'external', url: 'https://news.example.com/' },
      captureWildcard: false,
    });
    expect(edited).toMatchObject({ destination: { url: 'https://news.example.com/' }, permanent: false });
    const { data: latest } = await reader.orgs.listSiteRedirects(orgId, site.id, { orderBy: SiteRedirectOrderBy.UpdatedAt, limit: 10 });
    expect(latest.items[0]!.id).toBe(external.id);
    expect(latest.items).toHaveLength(5);
    const { data: found } = await reader.orgs.listSiteRedirects(orgId, site.id, { search: 'v1', draft: false });
    expect(found.items.map((x) => x.id)).toEqual([wildcard.id]);
    expect((await reader.orgs.listSiteRedirects(orgId, site.id, { draft: true })).data.items).toEqual([]);

    const root = new URL(site.urls.published!).pathname.replace(/\/$/, '');
    const resolved = await reader.orgs.getSiteRedirectBySource(orgId, site.id, { source: '/docs-v1/users/list' });
    expect(resolved.data.redirect.id).toBe(wildcard.id);
    expect(resolved.data.target).toBe(`http://quire.test${root}/api/users/list`);
    expect((await reader.orgs.getSiteRedirectBySource(orgId, site.id, { source: '/docs-v1/*' })).data.redirect.id).toBe(wildcard.id);
    expect((await reader.orgs.getSiteRedirectBySource(orgId, site.id, { source: '/help' })).data.target).toBe(
      `http://quire.test${root}/${faq.path}`,
    );
    expect((await refusal(reader.orgs.getSiteRedirectBySource(orgId, site.id, { source: '/nowhere' }))).code).toBe(404);

    // Readers are sent on: permanent redirects with 301, the others with 302, a wildcard's rest carried over.
    const section = await visit(site.urls.published!, 'old-api');
    expect([section.status, section.headers.get('location')]).toEqual([301, `${root}/api/`]);
    const blog = await visit(site.urls.published!, 'blog');
    expect([blog.status, blog.headers.get('location')]).toEqual([302, 'https://news.example.com/']);
    const deep = await visit(site.urls.published!, 'docs-v1/users/list');
    expect([deep.status, deep.headers.get('location')]).toEqual([301, `${root}/api/users/list`]);
    const page = await visit(site.urls.published!, 'questions');
    expect(page.headers.get('location')).toBe(`${root}/${faq.path}`);
    expect(toPage.destination).toEqual({ kind: 'site-page', siteSpaceId: guideSiteSpace.id, pageId: faq.id });

    await api.orgs.deleteSiteRedirectById(orgId, site.id, external.id);
    await api.orgs.deleteSiteRedirectById(orgId, site.id, external.id);
    expect((await visit(site.urls.published!, 'blog')).status).toBe(404);
  });
});
