import { describe, expect, it } from 'vitest';
import type { PublishedHead, SiteRow } from '../store/sites';
import type { SectionRow, SiteSpaceRow } from '../store/sitesStructure';
import type { PublishedPage } from './contentSource';
import { SiteRequest } from './context';
import { type SiteModel, siteView, visitorView } from './model';

/**
 * What one visitor may see of a published site: spaces and sections whose adaptive-content
 * condition holds for the visitor's claims (one that no longer parses hides its content),
 * spaces not published left out, and a digest of what is visible that differs whenever
 * what two visitors see differs (cached renders are shared by that digest). A site's root
 * opens its first page that is neither hidden nor below a hidden page.
 */
const site = { id: 'site', title: 'Docs', customization: {}, default_site_space_id: null, default_section_id: null } as unknown as SiteRow;
let seq = 0;
const space = (id: string, condition: string | null, section_id: string | null = null): SiteSpaceRow =>
  ({
    id: `ss-${id}`,
    seq: ++seq,
    site_id: 'site',
    section_id,
    space_id: id,
    path: id,
    title: null,
    condition,
    position: `a${seq}`,
    customization: null,
  }) as SiteSpaceRow;
const section = (id: string, condition: string | null): SectionRow =>
  ({
    id,
    seq: ++seq,
    site_id: 'site',
    group_id: null,
    title: id,
    description: null,
    icon: null,
    path: id,
    condition,
    position: `a${seq}`,
    default_site_space_id: null,
  }) as SectionRow;
const heads = (...ids: string[]) => new Map(ids.map((id) => [id, { revisionId: `rev-${id}`, title: `Space ${id}` }]));
const ctx = (claims: Record<string, unknown>) => ({ visitor: { claims } });
const model = (m: Partial<SiteModel>): SiteModel => ({ site, sections: [], groups: [], siteSpaces: [], redirects: [], ...m });

describe('what a visitor sees of a site', () => {
  it('shows the spaces whose condition holds for the claims, and only published ones', () => {
    const m = model({
      siteSpaces: [
        space('open', null),
        space('pro', 'visitor.claims.plan == "pro"'),
        space('broken', 'visitor.claims.plan =='),
        space('unpublished', null),
      ],
    });
    const spaces = heads('open', 'pro', 'broken');
    const ids = (claims: Record<string, unknown>) =>
      siteView(m, spaces, ctx(claims)).sections.flatMap((s) => s.variants.map((v) => v.spaceId));
    expect(ids({})).toEqual(['open']);
    expect(ids({ plan: 'pro' })).toEqual(['open', 'pro']);
    expect(ids({ plan: 'team' })).toEqual(['open']);
    const view = siteView(m, spaces, ctx({ plan: 'pro' }));
    expect(view.sections[0]?.variants.map((v) => [v.title, v.revisionId, v.isDefault])).toEqual([
      ['Space open', 'rev-open', true],
      ['Space pro', 'rev-pro', false],
    ]);
  });

  it('serves at the root the declared default space when visible, else the first visible one', () => {
    const m = model({
      site: { ...site, default_site_space_id: 'ss-pro2' } as SiteRow,
      siteSpaces: [space('open2', null), space('pro2', 'visitor.claims.plan == "pro"')],
    });
    const defaults = (claims: Record<string, unknown>) =>
      siteView(m, heads('open2', 'pro2'), ctx(claims)).sections[0]?.variants.map((v) => [v.spaceId, v.isDefault]);
    expect(defaults({ plan: 'pro' })).toEqual([
      ['open2', false],
      ['pro2', true],
    ]);
    expect(defaults({})).toEqual([['open2', true]]);
    const only = siteView(m, heads('open2'), ctx({}));
    expect(only.sections[0]).toMatchObject({ id: '', path: '', title: 'Docs', isDefault: true });
    expect(only.tabs).toEqual([]);
  });

  it('serves at the root the declared default section when visible, else the first visible one', () => {
    const m = model({
      site: { ...site, default_section_id: 'staff' } as SiteRow,
      sections: [section('public', null), section('staff', 'visitor.claims.staff')],
      siteSpaces: [space('p', null, 'public'), space('s', null, 'staff')],
    });
    const defaults = (claims: Record<string, unknown>) =>
      siteView(m, heads('p', 's'), ctx(claims)).sections.map((x) => [x.id, x.isDefault]);
    expect(defaults({ staff: true })).toEqual([
      ['public', false],
      ['staff', true],
    ]);
    expect(defaults({})).toEqual([['public', true]]);
  });

  it('shows nothing when no space is visible', () => {
    const m = model({ siteSpaces: [space('pro', 'visitor.claims.plan == "pro"')] });
    expect(siteView(m, heads('pro'), ctx({})).sections).toEqual([]);
    expect(siteView(m, heads(), ctx({ plan: 'pro' })).sections).toEqual([]);
  });

  it('shows the sections whose condition holds, each with its visible spaces', () => {
    const m = model({
      sections: [section('guides', null), section('internal', 'visitor.claims.staff'), section('empty', null)],
      siteSpaces: [space('g', null, 'guides'), space('i', null, 'internal'), space('hidden', 'visitor.claims.staff', 'empty')],
    });
    const spaces = heads('g', 'i', 'hidden');
    const shown = (claims: Record<string, unknown>) => siteView(m, spaces, ctx(claims)).sections.map((s) => s.id);
    expect(shown({})).toEqual(['guides']);
    expect(shown({ staff: true })).toEqual(['guides', 'internal', 'empty']);
    expect(siteView(m, spaces, ctx({})).tabs.map((t) => t.id)).toEqual(['guides']);
  });

  it('gives visitors who see different things different digests, and the same one to those who see the same', () => {
    const m = model({
      siteSpaces: [space('open', null), space('pro', 'visitor.claims.plan == "pro"')],
    });
    const head = {
      site,
      revisions: [
        ['open', 'rev-open', 'Open'],
        ['pro', 'rev-pro', 'Pro'],
      ],
    } as unknown as PublishedHead;
    const anonymous = visitorView(m, head, {});
    const pro = visitorView(m, head, { plan: 'pro' });
    expect(pro.signature).not.toBe(anonymous.signature);
    expect(visitorView(m, head, { plan: 'team' }).signature).toBe(anonymous.signature);
    expect(visitorView(m, head, { plan: 'pro', other: 1 }).signature).toBe(pro.signature);
    expect(pro.ctx).toEqual({ visitor: { claims: { plan: 'pro' } } });
    // Header links shown to some visitors only are part of what they see.
    const linked = model({
      site: {
        ...site,
        customization: { header: { links: [{ title: 'Pro area', to: null, condition: 'visitor.claims.plan == "pro"' }] } },
      } as unknown as SiteRow,
      siteSpaces: [space('open', null)],
    });
    const openOnly = { site, revisions: [['open', 'rev-open', 'Open']] } as unknown as PublishedHead;
    expect(visitorView(linked, openOnly, { plan: 'pro' }).signature).not.toBe(visitorView(linked, openOnly, {}).signature);
    expect(visitorView(linked, openOnly, { plan: 'team' }).signature).toBe(visitorView(linked, openOnly, {}).signature);
    // Another revision of a visible space is another render.
    const moved = {
      ...head,
      revisions: [
        ['open', 'rev-open-2', 'Open'],
        ['pro', 'rev-pro', 'Pro'],
      ],
    } as unknown as PublishedHead;
    expect(visitorView(m, moved, {}).signature).not.toBe(anonymous.signature);
  });
});

describe('the page at a site’s root', () => {
  const page = (id: string, extra: Partial<PublishedPage> = {}, children: PublishedPage[] = []): PublishedPage =>
    ({ id, path: id, title: id, type: 'document', hidden: false, children, ...extra }) as PublishedPage;
  const firstPage = (pages: PublishedPage[]) => {
    const flat: PublishedPage[] = [];
    const walk = (l: PublishedPage[]) => l.forEach((p) => (flat.push(p), walk(p.children)));
    walk(pages);
    return new SiteRequest(null as never, null as never, null as never, { root: '', origin: '', serverBase: '' }, 'light').firstPage(flat)
      ?.id;
  };

  it('is the first document page neither hidden nor below a hidden page', () => {
    expect(firstPage([page('a'), page('b')])).toBe('a');
    expect(firstPage([page('secret', { hidden: true }, [page('below'), page('below2', {}, [page('deep')])]), page('b')])).toBe('b');
    expect(firstPage([page('group', { type: 'group' } as Partial<PublishedPage>, [page('inside')]), page('b')])).toBe('inside');
    expect(firstPage([page('secret', { hidden: true }), page('b', {}, [page('c')])])).toBe('b');
    expect(firstPage([page('secret', { hidden: true }, [page('below')])])).toBeUndefined();
  });
});
