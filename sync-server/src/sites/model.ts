import { createHash } from 'node:crypto';
import { byPosition } from '@quire/shared';
import type { SiteCustomizationSettings } from '@quire/shared/schemas/siteCustomization';
import { siteSpaceSettings } from '../core/sites/customization';
import { conditionHolds, type EvalContext } from '../core/sites/expression';
import type { Queryable } from '../store/db';
import type { PublishedHead, SiteRow } from '../store/sites';
import { type RedirectRow, redirectsOfSite } from '../store/sitesRedirects';
import {
  groupsOfSite,
  type SectionGroupRow,
  type SectionRow,
  type SiteSpaceRow,
  sectionsOfSite,
  siteSpacesOfSite,
} from '../store/sitesStructure';

/**
 * A site's structure as the renderer needs it, loaded once per site version (any write to
 * the site bumps it) and then narrowed to what one visitor may see.
 */
export interface SiteModel {
  site: SiteRow;
  sections: SectionRow[];
  groups: SectionGroupRow[];
  siteSpaces: SiteSpaceRow[];
  redirects: RedirectRow[];
}

const models = new Map<string, { version: number; model: Promise<SiteModel> }>();

export async function loadSiteModel(db: Queryable, site: SiteRow): Promise<SiteModel> {
  const hit = models.get(site.id);
  if (hit && hit.version === site.version) return hit.model;
  const model = (async () => {
    const [sections, groups, siteSpaces, redirects] = await Promise.all([
      sectionsOfSite(db, site.id),
      groupsOfSite(db, site.id),
      siteSpacesOfSite(db, site.id),
      redirectsOfSite(db, site.id),
    ]);
    return { site, sections, groups, siteSpaces, redirects };
  })();
  if (models.size > 500) models.clear();
  models.set(site.id, { version: site.version, model });
  model.catch(() => models.delete(site.id));
  return model;
}

/** One variant of a section as a visitor sees it. */
export interface Variant {
  id: string;
  spaceId: string;
  title: string;
  path: string;
  /** Served at its section's root. */
  isDefault: boolean;
  revisionId: string | null;
  /** The space's language (`fr`, `pt-BR`), what the page's `lang` says. */
  language: string | null;
  settings: SiteCustomizationSettings;
  row: SiteSpaceRow;
}

export interface Section {
  /** '' for the implicit section of a site without sections. */
  id: string;
  title: string;
  description: string | null;
  icon: string | null;
  path: string;
  isDefault: boolean;
  groupId: string | null;
  variants: Variant[];
}

export interface TabGroup {
  id: string;
  title: string;
  sections: Section[];
}

/** What one visitor may see: sections and variants whose conditions hold, in order. */
export interface SiteView {
  model: SiteModel;
  sections: Section[];
  /** Top-level navigation: sections and groups (with their visible sections) in order. */
  tabs: (Section | TabGroup)[];
  /** A digest of what is visible, so cached renders are shared by visitors who see the same. */
  signature: string;
  ctx: EvalContext;
}

export function isGroup(t: Section | TabGroup): t is TabGroup {
  return 'sections' in t;
}

/** A published space as the request found it: its current revision and title. */
export interface SpaceHead {
  revisionId: string | null;
  title: string;
  language?: string | null;
}

export function siteView(model: SiteModel, spaces: Map<string, SpaceHead>, ctx: EvalContext): SiteView {
  const { site } = model;
  const variantsOf = (sectionId: string | null, defaultId: string | null): Variant[] => {
    const visible = model.siteSpaces.filter(
      (s) => s.section_id === sectionId && spaces.has(s.space_id) && conditionHolds(s.condition, ctx),
    );
    const declared = visible.find((v) => v.id === defaultId) ?? visible[0];
    return visible.map((s) => ({
      id: s.id,
      spaceId: s.space_id,
      title: s.title ?? spaces.get(s.space_id)?.title ?? '',
      path: s.path,
      isDefault: s.id === declared?.id,
      revisionId: spaces.get(s.space_id)?.revisionId ?? null,
      language: spaces.get(s.space_id)?.language ?? null,
      settings: siteSpaceSettings(site.customization, s.customization),
      row: s,
    }));
  };

  let sections: Section[];
  let tabs: (Section | TabGroup)[];
  if (model.sections.length === 0) {
    const only: Section = {
      id: '',
      title: site.title,
      description: null,
      icon: null,
      path: '',
      isDefault: true,
      groupId: null,
      variants: variantsOf(null, site.default_site_space_id),
    };
    sections = only.variants.length ? [only] : [];
    tabs = [];
  } else {
    const shown = model.sections.filter((s) => conditionHolds(s.condition, ctx));
    const built = shown
      .map<Section>((s) => ({
        id: s.id,
        title: s.title,
        description: s.description,
        icon: s.icon,
        path: s.path,
        isDefault: false,
        groupId: s.group_id,
        variants: variantsOf(s.id, s.default_site_space_id),
      }))
      .filter((s) => s.variants.length > 0);
    // Tabs: sections and groups in the order of the structure, groups flattened one level.
    const ordered: (Section | TabGroup)[] = [];
    const walk = (parent: string | null, into: (Section | TabGroup)[] | Section[]) => {
      const items = [
        ...model.sections
          .filter((s) => s.group_id === parent)
          .map((s) => ({ position: s.position, seq: s.seq, kind: 'section' as const, id: s.id })),
        ...model.groups
          .filter((g) => g.parent_id === parent)
          .map((g) => ({ position: g.position, seq: g.seq, kind: 'group' as const, id: g.id })),
      ].sort(byPosition);
      for (const item of items) {
        if (item.kind === 'section') {
          const s = built.find((x) => x.id === item.id);
          if (s) (into as Section[]).push(s);
        } else {
          const g = model.groups.find((x) => x.id === item.id) as SectionGroupRow;
          if (parent === null) {
            const group: TabGroup = { id: g.id, title: g.title, sections: [] };
            walk(g.id, group.sections);
            if (group.sections.length) (into as (Section | TabGroup)[]).push(group);
          } else walk(g.id, into);
        }
      }
    };
    walk(null, ordered);
    tabs = ordered;
    sections = ordered.flatMap((t) => (isGroup(t) ? t.sections : [t]));
    const declared = sections.find((s) => s.id === site.default_section_id) ?? sections[0];
    for (const s of sections) s.isDefault = s === declared;
  }
  const signature = createHash('sha1')
    .update(JSON.stringify(sections.map((s) => [s.id, s.variants.map((v) => [v.id, v.revisionId, v.title, v.language])])))
    // Header links may carry conditions too: which ones show is part of what is visible.
    .update(
      JSON.stringify(sections.map((s) => s.variants.map((v) => v.settings.header.links.map((l) => conditionHolds(l.condition, ctx))))),
    )
    .digest('base64url')
    .slice(0, 16);
  return { model, sections, tabs, signature, ctx };
}

/** What a visitor with `claims` sees of a site at the revisions the request read. */
export function visitorView(model: SiteModel, head: PublishedHead, claims: Record<string, unknown>): SiteView {
  const spaces = new Map(head.revisions.map(([id, revisionId, title, language]) => [id, { revisionId, title, language }]));
  return siteView(model, spaces, { visitor: { claims } });
}
