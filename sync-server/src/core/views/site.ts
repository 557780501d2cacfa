import type { Space } from '@quire/shared';
import type { Site } from '@quire/shared/schemas/site';
import type { SiteRedirect } from '@quire/shared/schemas/siteRedirect';
import type { SiteSection, SiteSectionGroup, SiteSpace } from '@quire/shared/schemas/siteStructure';
import type { OrgAccess } from '../access/callerAccess';
import type { SiteRow } from '../../store/sites';
import type { RedirectRow } from '../../store/sitesRedirects';
import { byPosition } from '@quire/shared';
import type { SectionGroupRow, SectionRow, SiteSpaceRow } from '../../store/sitesStructure';
import type { SiteStructureRead } from '../sites/structureRead';
import { compact, iso } from './iso';
import { presentSpace } from './space';

/** Where the server publishes a site: `/s/<organization>/<basename>`, no trailing slash. */
export function publishedBase(base: string, site: Pick<SiteRow, 'org_id' | 'basename'>): string {
  return `${base}/s/${site.org_id}/${site.basename}`;
}

/**
 * `manager`: may change the site (create role or more in its organization); `member`: reads
 * it as a member of its organization rather than as one of its published audience.
 */
export function presentSite(s: SiteRow, opts: { base: string; manager: boolean; member: boolean; siteSpaces: number }): Site {
  const published = `${publishedBase(opts.base, s)}/`;
  const favicon = (s.customization as { favicon?: { icon?: { light: string; dark?: string } } } | null)?.favicon;
  let proxy: Site['proxy'];
  if (s.proxy) proxy = { origin: `https://${s.proxy}`, target: published };
  return compact({
    object: 'site' as const,
    id: s.id,
    title: s.title,
    type: s.type,
    appliedType: s.type,
    icon: favicon?.icon ? { icon: favicon.icon } : undefined,
    hostname: s.hostname ?? undefined,
    basename: s.basename,
    proxy,
    visibility: s.visibility,
    defaultLevel: 'inherit' as const,
    published: s.published,
    siteSpaces: opts.siteSpaces,
    createdAt: iso(s.created_at) as string,
    updatedAt: iso(s.updated_at) as string,
    adaptiveContent: { enabled: s.adaptive_content },
    ads: { status: 'pending', submittable: false },
    agentsContext: s.agents_context,
    features: [],
    defaultSiteSection: s.default_section_id ?? undefined,
    defaultSiteSpace: s.default_site_space_id ?? undefined,
    shareKey: opts.manager ? s.share_key : undefined,
    visitorAuth: opts.manager ? { signingKey: s.visitor_key, audience: s.id } : undefined,
    permissions: {
      view: true,
      access: opts.member,
      edit: opts.manager,
      create: opts.manager,
      admin: opts.manager,
      // Integrations are not supported by this server.
      installIntegration: false,
      // Whoever reads the site reads its visitor schema (see the adaptive-schema read).
      viewAdaptiveSchema: true,
      editAdaptiveSchema: opts.manager,
    },
    urls: {
      location: `${opts.base}/v1/orgs/${s.org_id}/sites/${s.id}`,
      app: `${opts.base}/app/orgs/${s.org_id}/sites/${s.id}`,
      published,
      preview: published,
    },
  });
}

/** The API address of a site's sub-resource, e.g. `section-groups/<id>`. */
function siteApiUrl(base: string, site: Pick<SiteRow, 'org_id' | 'id'>, rest: string): string {
  return `${base}/v1/orgs/${site.org_id}/sites/${site.id}/${rest}`;
}

/** `manager`: the caller may change the site (see `presentSite`). */
export function presentRedirect(
  r: RedirectRow,
  ctx: { base: string; site: Pick<SiteRow, 'org_id' | 'id'>; manager: boolean },
): SiteRedirect {
  return {
    object: 'site-redirect',
    id: r.id,
    source: r.source,
    destination: r.destination,
    draft: false,
    captureWildcard: r.capture_wildcard,
    permanent: r.permanent,
    createdAt: iso(r.created_at) as string,
    updatedAt: iso(r.updated_at) as string,
    urls: { location: siteApiUrl(ctx.base, ctx.site, `redirects/${r.id}`) },
    permissions: { view: true, edit: ctx.manager },
  };
}

/**
 * A space the caller may not read (`GET /v1/spaces/{id}` answers them 404), as a site that
 * publishes it names it: its identity, not the state of its content (revision, counters) or
 * its workings (merge rules, parent, default level), and no permission at all.
 */
function namedSpace(s: Space): Space {
  const none = Object.fromEntries(Object.keys(s.permissions).map((k) => [k, false])) as Space['permissions'];
  return {
    ...s,
    mergeRules: { type: 'inherit' },
    defaultLevel: 'inherit',
    parent: undefined,
    revision: '',
    comments: 0,
    changeRequests: 0,
    changeRequestsOpen: 0,
    changeRequestsDraft: 0,
    shareKey: undefined,
    permissions: none,
  } as Space;
}

/**
 * A site's structure as read for one caller (`readSiteStructure`), presented: the spaces
 * behind it show what the caller may see of them, and a space the caller may not read only
 * what names it (see `namedSpace`), whether they read the site as a member or as one of its
 * published audience.
 */
export class SiteStructure {
  readonly site: SiteRow;
  readonly sections: SectionRow[];
  readonly groups: SectionGroupRow[];
  readonly siteSpaces: SiteSpaceRow[];
  private spaces = new Map<string, Space>();
  /** The caller may change the site: decides `permissions.edit` of every part. */
  private manager: boolean;

  constructor(
    read: SiteStructureRead,
    access: OrgAccess,
    private base: string,
  ) {
    this.site = read.site;
    this.sections = read.sections;
    this.groups = read.groups;
    this.siteSpaces = read.siteSpaces;
    this.manager = read.manager;
    for (const row of read.spaces) {
      const shown = presentSpace(row, access, base, read.counts.get(row.id) as never);
      // Reading the site's structure opens none of its spaces: each shows what the caller may read of it.
      this.spaces.set(row.id, access.roleOn(row) ? shown : namedSpace(shown));
    }
  }

  private sectionUrl(section: SectionRow | undefined): string {
    const root = publishedBase(this.base, this.site);
    if (!section || section.id === this.site.default_section_id) return root;
    return `${root}/${section.path}`;
  }

  siteSpace(ss: SiteSpaceRow): SiteSpace {
    const section = ss.section_id ? this.sections.find((s) => s.id === ss.section_id) : undefined;
    const isDefault = section ? section.default_site_space_id === ss.id : this.site.default_site_space_id === ss.id;
    const space = this.spaces.get(ss.space_id) as Space;
    return compact({
      object: 'site-space' as const,
      id: ss.id,
      path: ss.path,
      section: ss.section_id ?? undefined,
      space,
      title: ss.title ?? space?.title ?? '',
      default: isDefault,
      condition: ss.condition ?? undefined,
      draft: false,
      hasAdvancedCustomizationFeature: this.site.type !== 'basic',
      urls: { published: `${this.sectionUrl(section)}${isDefault ? '' : `/${ss.path}`}/` },
      permissions: this.permissions(),
    });
  }

  section(s: SectionRow): SiteSection {
    return compact({
      object: 'site-section' as const,
      id: s.id,
      title: s.title,
      description: s.description ?? undefined,
      default: this.site.default_section_id === s.id,
      draft: false,
      path: s.path,
      condition: s.condition ?? undefined,
      sectionGroup: s.group_id ?? undefined,
      siteSpaces: this.siteSpaces.filter((x) => x.section_id === s.id).map((x) => this.siteSpace(x)),
      icon: s.icon ?? undefined,
      urls: { published: `${this.sectionUrl(s)}/` },
      permissions: this.permissions(),
    });
  }

  /** A group: the sections directly in it, and its children (sections and nested groups) in order. */
  group(g: SectionGroupRow): SiteSectionGroup {
    const sections = this.sections.filter((s) => s.group_id === g.id);
    const items = [
      ...sections.map((s) => ({ position: s.position, seq: s.seq, out: this.section(s) as SiteSectionGroup['children'][number] })),
      ...this.groups.filter((x) => x.parent_id === g.id).map((x) => ({ position: x.position, seq: x.seq, out: this.group(x) })),
    ];
    return compact({
      object: 'site-section-group' as const,
      id: g.id,
      title: g.title,
      sectionGroup: g.parent_id ?? undefined,
      draft: false,
      sections: sections.map((s) => this.section(s)),
      children: items.sort(byPosition).map((i) => i.out),
      icon: g.icon ?? undefined,
      urls: { location: siteApiUrl(this.base, this.site, `section-groups/${g.id}`) },
      permissions: this.permissions(),
    });
  }

  private permissions() {
    return { view: true, edit: this.manager };
  }

  /** The published structure: sections and groups in order, or the root site spaces of a site without sections. */
  published(): { type: 'sections' | 'siteSpaces'; structure: unknown[] } {
    if (this.sections.length === 0) {
      return { type: 'siteSpaces', structure: this.siteSpaces.filter((s) => !s.section_id).map((s) => this.siteSpace(s)) };
    }
    const rootItems = [
      ...this.sections.filter((s) => !s.group_id).map((s) => ({ position: s.position, seq: s.seq, out: this.section(s) as unknown })),
      ...this.groups.filter((g) => !g.parent_id).map((g) => ({ position: g.position, seq: g.seq, out: this.group(g) as unknown })),
    ];
    return { type: 'sections', structure: rootItems.sort(byPosition).map((i) => i.out) };
  }
}

/** A site's visitor schema; whoever reads the site reads it, its managers replace it. */
export function presentAdaptiveSchema(site: SiteRow, base: string, manager: boolean) {
  return {
    object: 'site-adaptive-schema' as const,
    jsonSchema: site.adaptive_schema ?? {},
    updatedAt: (site.adaptive_schema_updated_at as Date).toISOString(),
    urls: { location: `${base}/v1/orgs/${site.org_id}/sites/${site.id}/adaptive-schema` },
    permissions: { view: true, edit: manager },
  };
}
