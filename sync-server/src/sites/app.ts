import { createHash } from 'node:crypto';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { LRUCache } from 'lru-cache';
import { API_PROXY_PATH, proxyApiCall } from './apiProxy';
import { linkWindow } from '../core/content/exports';
import { isReservedHostname, isServerPath } from '../core/sites/hostnameOwnership';
import { currentPagePaths, type RedirectPlaces, resolveRedirectPath } from '../core/sites/redirects';
import { baseUrl } from '../web/baseUrl';
import type { AppEnv } from '../web/env';
import type { Db } from '../store/db';
import { type PublishedHead, publishedHeadByHostname, publishedHeadByPath, SITE_CHANGES } from '../store/sites';
import { Encoded, encodedOf, sendEncoded } from './compression';
import { clearBodyCache } from './contentSource';
import { flatten, type Mount, SiteRequest } from './context';
import { diagramInBody, parseDiagramPath } from './diagrams';
import { FreshLoader } from './freshLoad';
import { gate } from './gate';
import { imageVariant } from './images';
import { forgetSiteHostnames, isSiteHostname } from './hostnames';
import { loadSiteModel, type SiteModel, visitorView } from './model';
import { MCP_PATH, serveSiteMcp } from '../mcp/site';
import {
  BEACON_PATH,
  FEEDBACK_PATH,
  PRIVACY_PATH,
  receiveBeacon,
  receiveFeedbackForm,
  recordOnSite,
  type Where,
  whereOf,
} from './insights';
import { renderNotFound, renderPage, renderPrivacyPage, renderSearchPage } from './pages';
import { ASSETS } from './render/assets';
import { PLAYER_ORIGINS } from './render/embeds';
import { esc } from './render/html';
import { prepareSearch, searchSite } from './search';
import { llmsFullTxt, llmsTxt, pageMarkdown, robotsTxt, sitemapXml } from './seo';

/**
 * Published sites, served by this server: under `/s/<organization>/<basename>/` (the
 * organization by id or by its hostname) and at a site's own hostname. No API token:
 * the site's visibility decides (see gate.ts). Pages are rendered from the current
 * revision of each space and cached by site version, visible structure and revision.
 */

type Ctx = Context<AppEnv>;

/** A page as answered: its bytes (plain, and compressed once asked for) and the hashes of its inline styles for the CSP. */
interface HtmlAnswer {
  body: Encoded;
  styles: string[];
}

const pages = new LRUCache<string, { status: number; page: HtmlAnswer; noIndex: boolean; connect: string[]; where: Where }>({ max: 1000 });

/** Site assets are named by their content: compressed at brotli's best quality, once. */
const assetBodies = new Map<string, Encoded>();

/**
 * The CSP names the page's own inline styles by hash rather than by a nonce: the bytes of
 * a cached page then never change, so they are compressed once. Content cannot add a
 * `<style>` (the sanitizer removes them), and scripts come only from the site ('self').
 */
function htmlAnswer(html: string, cached: boolean): HtmlAnswer {
  const head = html.slice(0, html.indexOf('</head>') + 1 || html.length);
  const styles = [...head.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(
    (m) =>
      `'sha256-${createHash('sha256')
        .update(m[1] as string)
        .digest('base64')}'`,
  );
  return { body: cached ? new Encoded(html) : encodedOf(html), styles };
}

/**
 * The site and its spaces' revisions, read for every request so a change shows on the
 * next one. With the embedded database one process owns the data and hears of every
 * change synchronously at commit (triggers of migration 009 notify), so what was read is
 * kept until such a notification; with PostgreSQL, shared by several instances, concurrent
 * requests share reads instead (see FreshLoader).
 */
const headSources = new WeakMap<Db, (key: string, read: () => Promise<PublishedHead | undefined>) => Promise<PublishedHead | undefined>>();

function headSource(db: Db) {
  let source = headSources.get(db);
  if (source) return source;
  if (db.kind === 'pglite') {
    // Bounded: unknown paths are kept too (as not found), and anyone can ask for many.
    const kept = new LRUCache<string, Promise<PublishedHead | undefined>>({ max: 2000 });
    const listening = db.listen(SITE_CHANGES, () => {
      kept.clear();
      forgetSiteHostnames();
    });
    source = async (key, read) => {
      await listening;
      let hit = kept.get(key);
      if (!hit) {
        hit = read();
        kept.set(key, hit);
        hit.catch(() => kept.clear());
      }
      return hit;
    };
  } else {
    const loader = new FreshLoader<PublishedHead | undefined>();
    source = (key, read) => loader.load(key, read);
  }
  headSources.set(db, source);
  return source;
}

/** Forgets every rendered page, so the next request renders again (benchmarks of a first render). */
export function clearRenderCaches() {
  pages.clear();
  clearBodyCache();
}

function csp(styles: string[], serverBase: string, connect: string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    ['style-src', "'self'", ...styles].join(' '),
    `img-src 'self' https: data: ${serverBase}`,
    "font-src 'self' data:",
    // The API servers a reference page's "try it" console calls, and nothing else.
    ['connect-src', "'self'", ...connect.filter((o) => /^https?:\/\/[\w.:[\]-]+$/.test(o))].join(' '),
    `frame-src ${PLAYER_ORIGINS.join(' ')}`,
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

function html(
  c: Ctx,
  status: number,
  body: string | HtmlAnswer,
  opts: { serverBase: string; private: boolean; noIndex: boolean; connect?: string[] },
) {
  const page = typeof body === 'string' ? htmlAnswer(body, false) : body;
  c.header('Content-Security-Policy', csp(page.styles, opts.serverBase, opts.connect));
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'strict-origin-when-cross-origin');
  c.header('X-Frame-Options', 'DENY');
  c.header('Cache-Control', opts.private ? 'private, no-store' : 'no-cache');
  if (opts.noIndex) c.header('X-Robots-Tag', 'noindex');
  return sendEncoded(c, status, page.body, 'text/html; charset=UTF-8');
}

function text(c: Ctx, body: string, type: string, isPrivate: boolean) {
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Cache-Control', isPrivate ? 'private, no-store' : 'no-cache');
  return sendEncoded(c, 200, encodedOf(body), type);
}

/** A plain page for visitors who may not see the site: it says nothing about it. */
function bare(c: Ctx, status: 401 | 404, serverBase: string) {
  const title = status === 404 ? 'Page not found' : 'Sign-in required';
  const message =
    status === 404
      ? 'There is nothing here.'
      : 'This content is only available to signed-in visitors. Open it through the link you were given.';
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title><style>body{font:16px/1.6 system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;margin:0;color:#1b1c1f}main{text-align:center;max-width:420px}h1{font-size:56px;margin:0;color:#346ddb}</style></head><body><main><h1>${status}</h1><h2>${title}</h2><p>${esc(message)}</p></main></body></html>`;
  return html(c, status, body, { serverBase, private: true, noIndex: true });
}

/**
 * A location on this site stays on it: a path that starts with `//` (or `/\\`, which
 * browsers read the same) would be a protocol-relative URL to another host, as when a
 * visitor asks for `//evil.example/` or a wildcard rule appends such a path.
 */
export function localLocation(location: string): string {
  return location.replace(/^[/\\]{2,}/, '/');
}

/** Serves one request to a site mounted at `mount`; `rest` is the path below the site root. */
async function serveSite(c: Ctx, head: PublishedHead | undefined, mount: Mount, rest: string): Promise<Response> {
  const { db } = c.get('deps');
  const assetName = rest.startsWith('/~assets/') ? rest.slice('/~assets/'.length) : '';
  const asset = Object.hasOwn(ASSETS, assetName) ? ASSETS[assetName] : undefined;
  if (asset) {
    c.header('Cache-Control', 'public, max-age=31536000, immutable');
    c.header('X-Content-Type-Options', 'nosniff');
    let body = assetBodies.get(assetName);
    if (!body) assetBodies.set(assetName, (body = new Encoded(asset.body, 11)));
    return sendEncoded(c, 200, body, asset.type);
  }
  if (!head?.site.published) return bare(c, 404, mount.serverBase);
  const site = head.site;
  // Machines read the site through MCP; they carry the key or token in the request, never a cookie.
  if (rest === MCP_PATH) {
    const answer = await serveSiteMcp(c, head, mount);
    if (c.req.method === 'POST' && answer.status < 400) recordOnSite(c, site, mount.origin, 'mcp_request', { displayContext: 'mcp' });
    return answer;
  }
  if (rest === '/robots.txt' && site.visibility !== 'public')
    return text(c, await robotsTxt(undefined, ''), 'text/plain; charset=utf-8', false);

  const access = await gate(c, site, mount.root);
  if (access.kind === 'refused') return bare(c, access.status, mount.serverBase);
  if (access.kind === 'redirect') {
    c.header('Set-Cookie', access.cookie);
    c.header('Cache-Control', 'private, no-store');
    c.header('Referrer-Policy', 'no-referrer');
    return c.redirect(localLocation(access.location), 302);
  }
  const isPrivate = site.visibility === 'share-link' || site.visibility === 'visitor-auth' || Object.keys(access.claims).length > 0;

  // The theme switch without script: `?theme=dark` remembers the choice and comes back.
  const wantedTheme = c.req.query('theme');
  if (wantedTheme === 'light' || wantedTheme === 'dark') {
    const back = new URL(c.req.url);
    back.searchParams.delete('theme');
    c.header('Set-Cookie', `quire_theme=${wantedTheme}; Path=/; Max-Age=31536000; SameSite=Lax`);
    return c.redirect(localLocation(`${back.pathname}${back.search}`), 303);
  }

  const model = await loadSiteModel(db, site);
  if (c.req.method === 'POST' && (rest === FEEDBACK_PATH || rest === BEACON_PATH)) {
    const req = new SiteRequest(db, head, visitorView(model, head, access.claims), mount, 'light');
    return rest === FEEDBACK_PATH ? receiveFeedbackForm(c, req, access.claims) : receiveBeacon(c, req, access.claims);
  }
  if (c.req.method === 'POST' && rest === API_PROXY_PATH) {
    const req = new SiteRequest(db, head, visitorView(model, head, access.claims), mount, 'light');
    const input = await c.req.json().catch(() => undefined);
    const result = await proxyApiCall(req, input, c.get('deps').config.allowPrivateFetch);
    c.header('Cache-Control', 'private, no-store');
    if (result.kind !== 'ok')
      return c.json({ message: result.message }, result.kind === 'invalid' ? 400 : result.kind === 'refused' ? 403 : 502);
    if (result.contentType) c.header('Content-Type', result.contentType);
    // The API's answer is shown as text by the console, never run: keep the browser from sniffing it into a page.
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Content-Security-Policy', "default-src 'none'; sandbox");
    const status = result.status >= 200 && result.status <= 599 ? result.status : 502;
    if (status === 204 || status === 205 || status === 304) return c.body(null, status);
    return c.body(new Uint8Array(result.body), status as 200);
  }
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
    // Sites are read-only; a redirect still answers, keeping the method (307/308).
    const redirect = await resolveRedirectPath(model.redirects, rest, redirectPlaces(db, head, model, mount.root), true);
    if (redirect) return c.redirect(localLocation(redirect.location), redirect.status);
    c.header('Allow', 'GET, HEAD');
    return c.body(null, 405);
  }
  const view = visitorView(model, head, access.claims);
  const cookieTheme = getCookie(c, 'quire_theme');
  const defaultVariant = view.sections.find((s) => s.isDefault)?.variants.find((v) => v.isDefault);
  const settings = defaultVariant?.settings;
  const theme: 'light' | 'dark' =
    settings?.themes.toggeable && (cookieTheme === 'light' || cookieTheme === 'dark')
      ? cookieTheme
      : // `system` needs the reader's preference, which a page without script cannot know: light.
        settings?.themes.default === 'dark'
        ? 'dark'
        : 'light';
  const req = new SiteRequest(db, head, view, mount, theme);
  const noIndexSite = site.visibility !== 'public';
  const record = (type: string, opts: Parameters<typeof recordOnSite>[4] = {}) =>
    recordOnSite(c, site, mount.origin, type, { claims: access.claims, ...opts });

  switch (rest) {
    case '/robots.txt':
      return text(c, await robotsTxt(req, req.absolute(`${mount.root}/sitemap.xml`)), 'text/plain; charset=utf-8', isPrivate);
    case '/sitemap.xml':
      return text(c, await sitemapXml(req), 'application/xml; charset=utf-8', isPrivate);
    case '/llms.txt':
    case '/llms-full.txt':
      if (site.agents_context === 'excluded') break;
      record('llms_request', { displayContext: 'server', fields: { llms_variant: rest === '/llms.txt' ? 'standard' : 'full' } });
      return text(c, rest === '/llms.txt' ? await llmsTxt(req) : await llmsFullTxt(req), 'text/plain; charset=utf-8', isPrivate);
    case '/~search': {
      const q = (c.req.query('q') ?? '').slice(0, 200);
      const hits = await searchSite(req, q);
      c.header('Vary', 'Accept');
      if ((c.req.header('accept') ?? '').includes('application/json')) {
        c.header('Cache-Control', 'private, no-store');
        return sendEncoded(c, 200, encodedOf(JSON.stringify({ query: q, results: hits })), 'application/json; charset=UTF-8');
      }
      const page = await renderSearchPage(req, q, hits);
      if (q.trim()) record('search_type_query', { fields: { search_query: q.trim(), search_results: hits.length } });
      if (page) return html(c, 200, page, { serverBase: mount.serverBase, private: true, noIndex: true });
      break;
    }
    case PRIVACY_PATH: {
      const page = await renderPrivacyPage(req);
      if (page) return html(c, 200, page, { serverBase: mount.serverBase, private: isPrivate, noIndex: true });
      break;
    }
  }

  const img = /^\/~img\/([^/]+)\/([^/]+)\/(\d+)\.webp$/.exec(rest);
  if (img) {
    const variant = view.sections.flatMap((s) => s.variants).find((v) => v.revisionId === img[1]);
    const file = variant ? (await req.snapshot(variant)).files[decodeURIComponent(img[2] as string)] : undefined;
    const bytes = variant && file ? await imageVariant(db, variant.spaceId, file, Number(img[3])) : undefined;
    if (bytes) {
      // The URL names the revision: its bytes never change.
      c.header('Cache-Control', isPrivate ? 'private, max-age=31536000, immutable' : 'public, max-age=31536000, immutable');
      c.header('X-Content-Type-Options', 'nosniff');
      return c.body(new Uint8Array(bytes), 200, { 'Content-Type': 'image/webp' });
    }
  }

  const diagram = parseDiagramPath(rest);
  if (diagram) {
    const variant = view.sections.flatMap((s) => s.variants).find((v) => v.revisionId === diagram.revisionId);
    const snapshot = variant ? await req.snapshot(variant) : undefined;
    const known = snapshot && flatten(snapshot.pages).some((p) => p.id === diagram.pageId && p.type === 'document');
    const drawn = snapshot && known ? diagramInBody(await snapshot.body(diagram.pageId), diagram.digest, diagram.theme) : undefined;
    if (drawn) {
      c.header('Cache-Control', isPrivate ? 'private, max-age=31536000, immutable' : 'public, max-age=31536000, immutable');
      c.header('X-Content-Type-Options', 'nosniff');
      // Nothing in the drawing may run or load anything, even if opened on its own.
      c.header('Content-Security-Policy', "default-src 'none'");
      return c.body(drawn.svg, 200, { 'Content-Type': 'image/svg+xml; charset=utf-8' });
    }
  }

  if (rest.endsWith('.md')) {
    const loc = await req.locate(rest.slice(0, -3));
    if (loc && loc.page.type === 'document') {
      c.header('X-Robots-Tag', 'noindex');
      record('page_markdown_request', { displayContext: 'server', where: whereOf(loc) });
      return text(c, await pageMarkdown(req, loc), 'text/markdown; charset=utf-8', isPrivate);
    }
  } else if (!rest.startsWith('/~')) {
    // Pages embed download links, which expire: a page is kept for one link window at most.
    const key = `${site.id}:${site.version}:${view.signature}:${theme}:${mount.root}:${mount.origin}:${linkWindow()}:${rest.replace(/\/+$/, '')}`;
    let cached = pages.get(key);
    if (!cached) {
      const loc = await req.locate(rest);
      if (loc) {
        const rendered = await renderPage(req, loc);
        prepareSearch(req);
        cached = {
          status: 200,
          page: htmlAnswer(rendered.html, true),
          noIndex: loc.page.noIndex,
          connect: rendered.connect,
          where: whereOf(loc),
        };
      }
      if (cached) pages.set(key, cached);
    }
    if (cached) {
      // Counted on the side: the cached bytes are answered as they are.
      if (c.req.method === 'GET') record('page_view', { where: cached.where });
      return html(c, cached.status, cached.page, {
        serverBase: mount.serverBase,
        private: isPrivate,
        noIndex: noIndexSite || cached.noIndex,
        connect: cached.connect,
      });
    }
  }

  const redirect = await resolveRedirectPath(model.redirects, rest, redirectPlaces(db, head, model, mount.root), false);
  if (redirect) {
    c.header('Cache-Control', isPrivate ? 'private, no-store' : 'no-cache');
    return c.redirect(localLocation(redirect.location), redirect.status);
  }

  // A URL that is no page: a page view of no page, the broken links of the site.
  if (c.req.method === 'GET' && !rest.startsWith('/~')) record('page_view');
  const notFoundPage = await renderNotFound(req);
  if (notFoundPage) return html(c, 404, notFoundPage, { serverBase: mount.serverBase, private: isPrivate, noIndex: true });
  return bare(c, 404, mount.serverBase);
}

/** What redirect targets of a site are built from, pages read at the revisions this request serves. */
function redirectPlaces(db: Db, head: PublishedHead, model: SiteModel, root: string): RedirectPlaces {
  return {
    root,
    sections: model.sections,
    siteSpaces: model.siteSpaces,
    defaultSectionId: head.site.default_section_id,
    defaultSiteSpaceId: head.site.default_site_space_id,
    pagePath: currentPagePaths(db, async (spaceId) => head.revisions.find(([id]) => id === spaceId)?.[1]),
  };
}

/** A decoded organization or basename segment, or undefined when no site could have it (bad escapes, NUL, too long). */
function pathSegment(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  try {
    const decoded = decodeURIComponent(raw);
    return decoded.length <= 256 && !decoded.includes('\0') ? decoded : undefined;
  } catch {
    return undefined;
  }
}

/** Routes `/s/<organization>/<basename>/…`. Register before the API's catch-all 404. */
export function registerPublishedSites(app: OpenAPIHono<AppEnv>) {
  app.all('/s/*', async (c) => {
    const [, , org, basename, ...restParts] = c.req.path.split('/');
    const serverBase = baseUrl(c);
    const [orgKey, baseKey] = [pathSegment(org), pathSegment(basename)];
    if (!orgKey || !baseKey) return bare(c, 404, serverBase);
    const root = `/s/${encodeURIComponent(orgKey)}/${encodeURIComponent(baseKey)}`;
    if (restParts.length === 0) return c.redirect(`${root}/${new URL(c.req.url).search}`, 308);
    const { db } = c.get('deps');
    const head = await headSource(db)(`p\t${orgKey}\t${baseKey}`, () => publishedHeadByPath(db, orgKey, baseKey));
    return serveSite(c, head, { root, origin: serverBase, serverBase }, `/${restParts.join('/')}`);
  });
}

/**
 * Serves requests whose Host is the custom hostname of a site; every other request goes
 * on to the API. Hostnames are known from memory, so other requests cost no query.
 */
export function publishedSiteHosts(limit: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const host = (c.req.header('host') ?? '').replace(/:\d+$/, '').toLowerCase();
    if (!host || isServerPath(c.req.path)) return next();
    const { db, config } = c.get('deps');
    if (isReservedHostname(config, host)) return next();
    if (!(await isSiteHostname(db, host))) return next();
    const proto = c.req.header('x-forwarded-proto') === 'https' || new URL(c.req.url).protocol === 'https:' ? 'https' : 'http';
    const head = await headSource(db)(`h\t${host}`, () => publishedHeadByHostname(db, host));
    let res: Response | undefined;
    await limit(c, async () => {
      res = await serveSite(c, head, { root: '', origin: `${proto}://${c.req.header('host')}`, serverBase: baseUrl(c) }, c.req.path || '/');
    });
    return res;
  };
}
