import type { NodeJSON } from '@quire/shared/content/json';
import { isSafeUrl, parseTarget } from '@quire/shared/content/targets';
import type { ContentReference } from '@quire/shared/schemas/siteCustomization';
import { signedPdfUrl } from '../core/content/exports';
import { conditionHolds } from '../core/sites/expression';
import type { PublishedPage } from './contentSource';
import { flatten, type Located, type SiteRequest } from './context';
import { isGroup, type Section, type Variant } from './model';
import { assetUrls } from './render/assets';
import type { ElementContent } from 'hast';
import { fileByPath } from './assetPaths';
import { diagramResolver } from './diagrams';
import { loadSpec } from './openapiPages';
import { type LinkResolver, type OutlineEntry, renderBody, treeToHtml } from './render/body';
import { apiOperation, failedSpec } from './render/openapi';
import { apiPart } from './apiPageRender';
import { esc, safeHref } from './render/html';
import { coverHtml, pageLayout, withCover } from './pageLayout';
import { type Frame, type NavLink, renderFrame, type TreeNode } from './render/layout';

/**
 * Pages of a published site: the frame every page shares (header, sections, variants,
 * page tree, footer) and what goes in its main column.
 */

/** Where a customization link leads, within the site when it names a page, space or section. */
async function referenceUrl(
  req: SiteRequest,
  to: ContentReference | null | undefined,
  here: { section: Section; variant: Variant },
): Promise<string | undefined> {
  if (!to) return undefined;
  switch (to.kind) {
    case 'url':
      return isSafeUrl(to.url) ? to.url : undefined;
    case 'site-section': {
      const s = req.view.sections.find((x) => x.id === to.siteSection);
      return s ? `${req.sectionRoot(s)}/` : undefined;
    }
    case 'space':
    case 'page': {
      const candidates = [here, ...req.view.sections.flatMap((section) => section.variants.map((variant) => ({ section, variant })))];
      for (const c of candidates) {
        if (to.kind === 'space' ? c.variant.spaceId !== to.space : to.space && c.variant.spaceId !== to.space) continue;
        if (to.kind === 'space') return `${req.variantRoot(c.section, c.variant)}/`;
        const flat = flatten((await req.snapshot(c.variant)).pages);
        const page = flat.find((p) => p.id === to.page);
        if (page) return req.pageUrl(c.section, c.variant, flat, page);
      }
      return undefined;
    }
  }
}

function treeOf(
  req: SiteRequest,
  loc: Pick<Located, 'section' | 'variant' | 'flat'>,
  pages: PublishedPage[],
  currentId: string | undefined,
): TreeNode[] {
  const out: TreeNode[] = [];
  for (const p of pages) {
    if (p.hidden) continue;
    const children = treeOf(req, loc, p.children, currentId);
    if (p.type === 'group') out.push({ title: p.title, emoji: p.emoji, group: true, children });
    else if (p.type === 'link') {
      const href = linkPageHref(req, loc, p);
      if (href) out.push({ title: p.title, emoji: p.emoji, href, external: /^https?:/i.test(href), children });
    } else
      out.push({
        title: p.title,
        emoji: p.emoji,
        href: req.pageUrl(loc.section, loc.variant, loc.flat, p),
        current: p.id === currentId,
        children,
      });
  }
  return out;
}

function linkPageHref(req: SiteRequest, loc: Pick<Located, 'section' | 'variant' | 'flat'>, p: PublishedPage): string | undefined {
  if (!p.href || !isSafeUrl(p.href)) return undefined;
  const t = parseTarget(p.href);
  if (t.kind === 'url') return /^https?:/i.test(t.url) ? t.url : undefined;
  if (t.kind === 'page') {
    const target = loc.flat.find((x) => x.id === t.pageId);
    return target ? req.pageUrl(loc.section, loc.variant, loc.flat, target) : undefined;
  }
  return undefined;
}

/** The frame of every page of a site, around `main`. */
async function frame(
  req: SiteRequest,
  loc: Pick<Located, 'section' | 'variant' | 'flat'> & { page?: PublishedPage },
  main: string,
  extra: {
    title: string;
    description?: string;
    outline?: OutlineEntry[];
    wide?: boolean;
    canonical: string;
    noIndex?: boolean;
    markdownUrl?: string;
  },
): Promise<string> {
  const { section, variant } = loc;
  const settings = variant.settings;
  const ctx = req.view.ctx;
  const here = { section, variant };
  const siteTitle = settings.title ?? req.site.title;

  const headerLinks: NavLink[] = [];
  for (const l of settings.header.links) {
    if (!conditionHolds(l.condition, ctx)) continue;
    const href = await referenceUrl(req, l.to, here);
    const children: NavLink[] = [];
    for (const sub of l.links ?? []) {
      const subHref = await referenceUrl(req, sub.to, here);
      if (subHref) children.push({ title: sub.title, href: subHref, external: /^https?:/i.test(subHref) });
    }
    if (href || children.length)
      headerLinks.push({ title: l.title, href: href ?? '#', style: l.style, children, external: !!href && /^https?:/i.test(href) });
  }

  const tabs: NavLink[] = req.view.tabs.map((t) =>
    isGroup(t)
      ? {
          title: t.title,
          href: `${req.sectionRoot(t.sections[0] as Section)}/`,
          current: t.sections.includes(section),
          children: t.sections.map((s) => ({ title: s.title, href: `${req.sectionRoot(s)}/`, current: s === section })),
        }
      : { title: t.title, href: `${req.sectionRoot(t)}/`, current: t === section },
  );

  const variants: NavLink[] = [];
  for (const v of section.variants) {
    let href = `${req.variantRoot(section, v)}/`;
    if (loc.page && v !== variant) {
      // The same page in the other variant when it has one.
      const flat = flatten((await req.snapshot(v)).pages);
      const same = flat.find((p) => p.path === loc.page?.path);
      if (same) href = req.pageUrl(section, v, flat, same);
    }
    variants.push({ title: v.title, href, current: v === variant });
  }

  const footerLinks: Frame['footerLinks'] = [];
  for (const g of settings.footer.groups) {
    const links: NavLink[] = [];
    for (const l of g.links) {
      const href = await referenceUrl(req, l.to, here);
      if (href) links.push({ title: l.title, href, external: /^https?:/i.test(href) });
    }
    footerLinks.push({ title: g.title, links });
  }
  const annTo = settings.announcement.link ? await referenceUrl(req, settings.announcement.link.to, here) : undefined;
  const brandHref = await referenceUrl(req, settings.header.primaryLink, here);

  const assets = assetUrls(req.mount.root);
  return renderFrame({
    // The space's language, else the language of the site's own words.
    lang: variant.language || settings.internationalization.locale || 'en',
    siteTitle,
    brandHref,
    documentTitle: extra.title === siteTitle ? siteTitle : `${extra.title} | ${siteTitle}`,
    description: extra.description ?? '',
    canonical: req.absolute(extra.canonical),
    root: req.mount.root,
    assets,
    theme: req.theme,
    settings,
    noIndex: !!extra.noIndex || req.site.visibility !== 'public',
    socialImage: settings.socialPreview.url,
    headerLinks,
    tabs,
    variants,
    tree: treeOf(req, loc, (await req.snapshot(variant)).pages, loc.page?.id),
    main,
    outline: extra.outline ?? [],
    wide: extra.wide,
    footerLinks,
    announcementLink: annTo && settings.announcement.link ? { title: settings.announcement.link.title, href: annTo } : undefined,
    markdownUrl: extra.markdownUrl,
  });
}

/** A rendered page: its HTML (cached by the caller) and the origins its script may call. */
export interface RenderedPage {
  html: string;
  connect: string[];
}

/** OpenAPI operation blocks of a body, rendered ahead (specs are read from the database). */
async function operationBlocks(req: SiteRequest, body: NodeJSON, links: LinkResolver, connect: Set<string>) {
  const out = new Map<NodeJSON, ElementContent[]>();
  const walk = async (n: NodeJSON) => {
    if (n.type === 'openapiOperation') {
      const a = n.attrs ?? {};
      const spec = await loadSpec(req.db, req.site.org_id, a);
      if (spec.kind === 'ready') {
        const op = apiOperation(spec.document, String(a.path ?? ''), String(a.method ?? ''), links);
        if (op) {
          out.set(n, op.children);
          for (const o of op.connect) connect.add(o);
        }
      } else if (spec.kind === 'failed') out.set(n, failedSpec(spec.title, spec.problems));
    }
    for (const c of n.content ?? []) await walk(c);
  };
  await walk(body);
  return out;
}

/** The HTML of one page (cached by the caller). */
export async function renderPage(req: SiteRequest, loc: Located): Promise<RenderedPage> {
  const { section, variant, snapshot, flat, page } = loc;
  let main: string;
  let outline: OutlineEntry[] = [];
  let title = page.title;
  let description = page.description;
  const connect = new Set<string>();
  const url = req.pageUrl(section, variant, flat, page);
  const markdownUrl = req.markdownUrl(section, variant, page);
  const crumbs = [req.view.sections.length > 1 ? section.title : '', ...ancestors(flat, page).map((p) => p.title)].filter(Boolean);
  const layout = pageLayout(page);
  let cover = '';
  // A hidden title stays for screen readers and search engines.
  const head = () =>
    `${cover}${crumbs.length ? `<p class="breadcrumb">${crumbs.map(esc).join(' <span aria-hidden="true">/</span> ')}</p>` : ''}<h1 class="page-title${layout.title ? '' : ' visually-hidden'}">${page.emoji ? `<span class="emoji" aria-hidden="true">${esc(page.emoji)}</span>` : ''}${esc(title)}</h1>${description && layout.description ? `<p class="page-description">${esc(description)}</p>` : ''}`;
  if (page.type === 'document') {
    const body = (await snapshot.body(page.id)) as NodeJSON;
    const files = await req.fileUrls(variant, snapshot, withCover(body, page));
    const images = await req.imageSources(variant, snapshot, files);
    const links: LinkResolver = {
      page: (id, anchor) => {
        const target = flat.find((p) => p.id === id);
        if (!target) return undefined;
        return `${req.pageUrl(section, variant, flat, target)}${anchor ? `#${encodeURIComponent(anchor)}` : ''}`;
      },
      pageInfo: (id) => {
        const target = flat.find((p) => p.id === id);
        return target ? { title: target.title, description: target.description, emoji: target.emoji } : undefined;
      },
      file: (id) => files.get(id),
      fileInfo: (id) => snapshot.files[id],
      asset: (path) => fileByPath(snapshot.files, path)?.id,
      image: (id) => images.get(id),
      diagram: diagramResolver(req.mount.root, snapshot.revisionId, page.id),
      externalTarget: variant.settings.externalLinks.target,
    };
    let rendered: { html: string; outline: OutlineEntry[] };
    if (page.openapiSpec) {
      // An API reference page: its part of the spec, in the author's order.
      const spec = await loadSpec(req.db, req.site.org_id, { spec: page.openapiSpec });
      const ref = spec.kind === 'ready' ? apiPart(req, loc, spec.document, links) : undefined;
      if (spec.kind === 'ready' && ref) {
        title = ref.title;
        description = ref.description ?? page.description;
        for (const o of ref.connect) connect.add(o);
        const note = spec.failedSince
          ? '<p class="api-stale">The latest version of this specification could not be processed; this is the last one that could.</p>'
          : '';
        rendered = { html: note + treeToHtml(ref.children, ref.math), outline: ref.outline };
      } else {
        const message =
          spec.kind === 'failed'
            ? failedSpec(spec.title, spec.problems)
            : failedSpec(spec.kind === 'ready' ? page.title : spec.title, [
                spec.kind === 'pending' ? 'It is still being processed: try again in a moment.' : 'It does not exist.',
              ]);
        rendered = { html: treeToHtml(message, []), outline: [] };
      }
    } else {
      const ops = await operationBlocks(req, body, links, connect);
      rendered = renderBody(body, { ...links, openapi: (a) => findBlock(ops, a) });
    }
    outline = layout.outline ? rendered.outline : [];
    cover = coverHtml(page, layout, images);
    const pdf =
      variant.settings.pdf.enabled && variant.revisionId
        ? `<a href="${esc(await signedPdfUrl(req.db, { base: req.mount.serverBase, holder: `s.${req.site.id}` }, { spaceId: variant.spaceId, revisionId: variant.revisionId }))}" type="application/pdf">Download PDF</a>`
        : '';
    const actions = `<div class="page-actions">${variant.settings.pageActions.markdown ? `<a href="${esc(markdownUrl)}" type="text/markdown">View as Markdown</a>` : ''}${pdf}</div>`;
    main = `${head()}${actions}<article class="content${page.openapiSpec ? ' api-reference' : ''}">${rendered.html}</article>${feedbackForm(req, url, variant)}${layout.pagination ? pager(req, loc) : ''}`;
  } else {
    // A group page lists what it holds.
    const items = page.children
      .filter((c) => !c.hidden && c.type === 'document')
      .map(
        (c) =>
          `<a class="content-ref" href="${safeHref(req.pageUrl(section, variant, flat, c))}"><span class="content-ref-text"><span class="content-ref-title">${esc(c.title)}</span>${c.description ? `<span class="content-ref-description">${esc(c.description)}</span>` : ''}</span><span class="content-ref-arrow" aria-hidden="true">→</span></a>`,
      );
    main = `${head()}<div class="page-actions"></div><article class="content">${items.join('')}</article>`;
  }
  const html = await frame(req, loc, main, {
    title,
    description,
    outline,
    wide: layout.wide,
    canonical: url,
    noIndex: page.noIndex,
    markdownUrl: page.type === 'document' ? markdownUrl : undefined,
  });
  return { html, connect: [...connect] };
}

/** The rendered block of an `openapiOperation` node (matched by its attributes: the renderer walks copies). */
function findBlock(ops: Map<NodeJSON, ElementContent[]>, a: Record<string, unknown>): ElementContent[] | undefined {
  for (const [n, html] of ops) if (n.attrs === a) return html;
  return undefined;
}

function ancestors(flat: PublishedPage[], page: PublishedPage): PublishedPage[] {
  const parentOf = new Map<string, PublishedPage>();
  for (const p of flat) for (const c of p.children) parentOf.set(c.id, p);
  const out: PublishedPage[] = [];
  for (let p = parentOf.get(page.id); p; p = parentOf.get(p.id)) out.unshift(p);
  return out;
}

function pager(req: SiteRequest, loc: Located): string {
  if (!loc.variant.settings.pagination.enabled) return '';
  const readable = loc.flat.filter((p) => p.type === 'document' && !p.hidden && !hiddenByAncestor(loc.flat, p));
  const i = readable.findIndex((p) => p.id === loc.page.id);
  if (i < 0) return '';
  const prev = readable[i - 1];
  const next = readable[i + 1];
  const a = (p: PublishedPage, cls: string, label: string) =>
    `<a class="${cls}" href="${safeHref(req.pageUrl(loc.section, loc.variant, loc.flat, p))}" rel="${cls}"><small>${label}</small><span>${esc(p.title)}</span></a>`;
  if (!prev && !next) return '';
  return `<nav class="pager" aria-label="Pagination">${prev ? a(prev, 'prev', 'Previous') : ''}${next ? a(next, 'next', 'Next') : ''}</nav>`;
}

function hiddenByAncestor(flat: PublishedPage[], page: PublishedPage): boolean {
  return ancestors(flat, page).some((p) => p.hidden);
}

/**
 * "Was this page helpful?": three faces and an optional comment. A plain form, so it works
 * without script (it posts to the site and comes back to the page, where `:target` shows
 * the thanks); the site's insights script sends it in place instead.
 */
function feedbackForm(req: SiteRequest, pageUrl: string, variant: Variant): string {
  if (!variant.settings.feedback.enabled) return '';
  const path = pageUrl.slice(req.mount.root.length) || '/';
  const face = (rating: string, emoji: string, label: string) =>
    `<button type="submit" name="rating" value="${rating}" aria-label="${label}" title="${label}"><span aria-hidden="true">${emoji}</span></button>`;
  return (
    `<form class="feedback" id="feedback" method="post" action="${esc(req.mount.root)}/~feedback">` +
    `<input type="hidden" name="page" value="${esc(path)}">` +
    `<p class="feedback-question">Was this page helpful?</p>` +
    `<div class="feedback-faces">${face('bad', '😞', 'No')}${face('ok', '😐', 'Somewhat')}${face('good', '😃', 'Yes')}</div>` +
    `<label class="feedback-comment">Tell us more (optional)<textarea name="comment" maxlength="512" rows="2"></textarea></label>` +
    `<p class="feedback-thanks" id="feedback-thanks" role="status">Thank you for your feedback.</p>` +
    `</form>`
  );
}

/** What the site records of its readers, and what it does not: linked from every footer. */
export async function renderPrivacyPage(req: SiteRequest): Promise<string | undefined> {
  const section = req.view.sections.find((s) => s.isDefault);
  const variant = section?.variants.find((v) => v.isDefault);
  if (!section || !variant) return undefined;
  const flat = flatten((await req.snapshot(variant)).pages);
  const own = variant.settings.privacyPolicy.url;
  const main =
    `<h1 class="page-title">Privacy</h1><article class="content">` +
    `<p>This site counts what its readers do so that its authors can improve it: pages viewed, pages not found, searches and the results opened, links followed, the ratings and comments given with “Was this page helpful?”, and requests for pages as Markdown, <code>llms.txt</code> and the MCP endpoint.</p>` +
    `<h2>What is not kept</h2><ul>` +
    `<li>No cookie and no local storage are used to count you.</li>` +
    `<li>Your IP address and your browser’s full user agent are never stored. A visitor is counted as a hash of this site, your address, your user agent and a random value that changes every day and is then deleted, so visits on different days cannot be linked, and the hash cannot be turned back into an address.</li>` +
    `<li>Visits less than 30 minutes apart count as one session.</li>` +
    `<li>Only coarse facts are kept: the kind of browser, system and device, whether the visitor is a known robot, the preferred language, the site that linked here (without its query) and campaign tags of the URL.</li>` +
    `</ul><h2>Opting out</h2><p>If your browser sends Global Privacy Control (<code>Sec-GPC: 1</code>) or Do Not Track (<code>DNT: 1</code>), nothing about your visit is recorded.</p>` +
    `<h2>How long</h2><p>Events are deleted after a retention period set by whoever runs this server (400 days unless changed).</p>` +
    (own ? `<p>The site’s own privacy policy: <a href="${safeHref(own)}" rel="noopener noreferrer">${esc(own)}</a>.</p>` : '') +
    `</article>`;
  return frame(req, { section, variant, flat }, main, { title: 'Privacy', canonical: `${req.mount.root}/~privacy`, noIndex: true });
}

/** The site's own 404 page, in its frame. */
export async function renderNotFound(req: SiteRequest): Promise<string | undefined> {
  const section = req.view.sections.find((s) => s.isDefault);
  const variant = section?.variants.find((v) => v.isDefault);
  if (!section || !variant) return undefined;
  const flat = flatten((await req.snapshot(variant)).pages);
  const main = `<div class="not-found"><div class="code">404</div><h1 class="page-title">Page not found</h1><p class="page-description">The page you are looking for does not exist or has moved.</p><p><a href="${esc(req.mount.root)}/">Go to the home page</a></p></div>`;
  return frame(req, { section, variant, flat }, main, { title: 'Page not found', canonical: `${req.mount.root}/`, noIndex: true });
}

export interface SearchHit {
  title: string;
  heading: string;
  section: string;
  url: string;
  snippet: string;
}

/** The search results page for visitors without JavaScript. */
export async function renderSearchPage(req: SiteRequest, q: string, hits: SearchHit[]): Promise<string | undefined> {
  const section = req.view.sections.find((s) => s.isDefault);
  const variant = section?.variants.find((v) => v.isDefault);
  if (!section || !variant) return undefined;
  const flat = flatten((await req.snapshot(variant)).pages);
  const list = hits.length
    ? `<ul class="results">${hits.map((h) => `<li><a class="result" href="${safeHref(h.url)}"><span class="where">${esc(h.section)}</span><span class="title">${esc(h.heading ? `${h.title} › ${h.heading}` : h.title)}</span><span class="snippet">${esc(h.snippet)}</span></a></li>`).join('')}</ul>`
    : `<p class="page-description">${q ? `No results for “${esc(q)}”.` : 'Type something to search for.'}</p>`;
  const form = `<form class="search search-page" role="search" action="${esc(req.mount.root)}/~search" method="get"><input type="search" name="q" value="${esc(q)}" placeholder="Search…" aria-label="Search"><button type="submit">Search</button></form>`;
  const main = `<h1 class="page-title">Search</h1>${form}<div class="content">${list}</div>`;
  return frame(req, { section, variant, flat }, main, {
    title: q ? `Search: ${q}` : 'Search',
    canonical: `${req.mount.root}/~search`,
    noIndex: true,
  });
}
