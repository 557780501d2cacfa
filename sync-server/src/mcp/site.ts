import { DomainError, notFound } from '@quire/shared/domainErrors';
import { NoArgs, SitePageArgs, SiteSearchArgs } from '@quire/shared/schemas/mcp';
import type { Context } from 'hono';
import { LRUCache } from 'lru-cache';
import { linkWindow } from '../core/content/exports';
import type { AppEnv } from '../web/env';
import type { KeptAnswer, ToolAnswers } from './keptAnswers';
import { answerMcp, type McpEndpoint, tool } from './server';
import type { PublishedHead } from '../store/sites';
import { type Located, type Mount, SiteRequest } from '../sites/context';
import { machineGate } from '../sites/gate';
import { loadSiteModel, visitorView } from '../sites/model';
import { searchSite } from '../sites/search';
import { listed, pageMarkdown } from '../sites/seo';

/**
 * A published site as an MCP server at `<site base>/~mcp`: read-only tools to search it,
 * list its pages and read one as markdown, and its pages as resources. It answers exactly
 * what the site shows the visitor: the same gate (share key, visitor token), the same view
 * of sections and variants for the visitor's claims, the same markdown as `<page>.md`.
 */
export const MCP_PATH = '/~mcp';

/** Arguments are a search query or a page path: nothing near the API's body limit. */
const MAX_BODY_BYTES = 64 * 1024;

/** The path below the site root that a page argument names: a URL, a path on the server, or one below the site. */
function pagePath(req: SiteRequest, page: string): string {
  let path = page.trim();
  if (/^https?:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      throw notFound('page');
    }
  }
  path = path.replace(/[?#].*$/, '');
  if (!path.startsWith('/')) path = `/${path}`;
  const root = req.mount.root;
  if (root && (path === root || path.startsWith(`${root}/`))) path = path.slice(root.length) || '/';
  return path.endsWith('.md') ? path.slice(0, -3) : path;
}

async function locatePage(req: SiteRequest, page: string): Promise<Located> {
  const loc = await req.locate(pagePath(req, page));
  if (!loc || loc.page.type !== 'document') throw notFound('page');
  return loc;
}

interface ListedVariant {
  title: string;
  url: string;
  isDefault: boolean;
  pages: { title: string; description: string; url: string; markdownUrl: string }[];
}

/** Sections, their variants and the pages of each, as the visitor sees them. */
async function pageList(req: SiteRequest) {
  const sections = new Map<string, { title: string; url: string; isDefault: boolean; variants: Map<string, ListedVariant> }>();
  for (const l of await listed(req)) {
    const { section, variant } = l.loc;
    let s = sections.get(section.id);
    if (!s) {
      s = { title: section.title, url: req.absolute(`${req.sectionRoot(section)}/`), isDefault: section.isDefault, variants: new Map() };
      sections.set(section.id, s);
    }
    let v = s.variants.get(variant.id);
    if (!v) {
      v = { title: variant.title, url: req.absolute(`${req.variantRoot(section, variant)}/`), isDefault: variant.isDefault, pages: [] };
      s.variants.set(variant.id, v);
    }
    v.pages.push({
      title: l.page.title,
      description: l.page.description,
      url: req.absolute(l.url),
      markdownUrl: req.absolute(l.markdownUrl),
    });
  }
  return {
    site: req.site.title,
    sections: [...sections.values()].map((s) => ({ ...s, variants: [...s.variants.values()] })),
  };
}

const SITE: McpEndpoint<SiteRequest> = {
  name: 'quire-site',
  instructions: (req) =>
    `The published documentation site "${req.site.title}", read-only. Use search_site to find pages, list_pages for its sections, variants and pages, and read_page (with a page URL from either) for a page as markdown.`,
  tools: [
    tool({
      name: 'search_site',
      title: 'Search the site',
      description: 'Full-text search over the pages of this site; each hit names the page, the heading it was found under and its URL.',
      input: SiteSearchArgs,
      readOnly: true,
      kept: true,
      run: async (req, { query }) => {
        const hits = await searchSite(req, query);
        return { query, results: hits.map((h) => ({ ...h, url: req.absolute(h.url) })) };
      },
    }),
    tool({
      name: 'list_pages',
      title: 'List the pages',
      description: 'The sections of this site, the variants of each (versions, languages) and their pages in reading order, with URLs.',
      input: NoArgs,
      readOnly: true,
      kept: true,
      run: (req) => pageList(req),
    }),
    tool({
      name: 'read_page',
      title: 'Read a page',
      description:
        'One page as markdown. `page` is its URL (as list_pages or search_site give it, with or without `.md`) or its path below the site root; `/` is the first page.',
      input: SitePageArgs,
      readOnly: true,
      kept: true,
      run: async (req, { page }) => pageMarkdown(req, await locatePage(req, page)),
    }),
  ],
  resources: {
    async list(req) {
      return (await listed(req)).map((l) => ({
        uri: req.absolute(l.markdownUrl),
        name: l.page.title,
        title: l.page.title,
        ...(l.page.description ? { description: l.page.description } : {}),
        mimeType: 'text/markdown',
      }));
    },
    async read(req, uri) {
      try {
        const loc = await locatePage(req, uri);
        return { contents: [{ uri, mimeType: 'text/markdown', text: await pageMarkdown(req, loc) }] };
      } catch (err) {
        if (err instanceof DomainError && err.kind === 'not_found') return undefined;
        throw err;
      }
    },
  },
};

function refusal(c: Context<AppEnv>, status: 401 | 404) {
  c.header('Cache-Control', 'private, no-store');
  if (status === 401) {
    c.header('WWW-Authenticate', 'Bearer');
    return c.json({ error: { code: 401, message: 'This site needs a visitor token: send Authorization: Bearer <token>.' } }, 401);
  }
  return c.json({ error: { code: 404, message: 'No matching site found.' } }, 404);
}

/**
 * A POST body of declared length, read at once (the Node adapter reads it directly, where
 * handing the transport the request makes it build a stream: most of a tool call's cost,
 * profiled). Undefined when the transport must read it itself: no declared length, or too
 * large (it answers 413).
 */
async function declaredBody(c: Context<AppEnv>): Promise<unknown> {
  const length = Number(c.req.header('content-length') ?? Number.NaN);
  if (c.req.method !== 'POST' || !(length > 0 && length <= MAX_BODY_BYTES) || c.req.header('transfer-encoding')) return undefined;
  const text = await c.req.text();
  try {
    return JSON.parse(text);
  } catch {
    // No JSON-RPC message: the transport answers the protocol's parse error (400, -32700).
    return null;
  }
}

/**
 * Kept answers of the sites' tools. A published version never changes, so an answer is
 * keyed by what it was computed from rather than dropped: the site's version, the view the
 * visitor was given (sections and variants for their claims), the visitor's claims and share
 * key themselves, where the site is mounted (its URLs), and the window of the download links
 * it embeds, as the rendered pages are.
 */
const siteAnswers = new LRUCache<string, KeptAnswer>({
  max: 5_000,
  maxSize: 32 * 1024 * 1024,
  sizeCalculation: (a) => a.head.byteLength + 256,
});

/** Calls answered from kept answers, and those that looked and found none (for tests and benchmarks). */
export const siteAnswerStats = { hits: 0, misses: 0 };

function keptSiteAnswers(c: Context<AppEnv>, req: SiteRequest, claims: Record<string, unknown>): ToolAnswers {
  const { site, mount, view } = req;
  const visitor = JSON.stringify([c.req.query('shareKey') ?? '', claims]);
  const scope = `${site.id}\n${site.version}\n${view.signature}\n${visitor}\n${mount.root}\n${mount.origin}\n${linkWindow()}\n`;
  return {
    get(key) {
      const hit = siteAnswers.get(scope + key);
      if (hit) siteAnswerStats.hits++;
      else siteAnswerStats.misses++;
      return hit;
    },
    keep: (key, answer) => void siteAnswers.set(scope + key, answer),
  };
}

/** Answers `<site base>/~mcp` for a published site. */
export async function serveSiteMcp(c: Context<AppEnv>, head: PublishedHead, mount: Mount): Promise<Response> {
  const { db, log } = c.get('deps');
  const site = head.site;
  // A site that keeps agents out answers them as if it did not exist.
  if (site.agents_context === 'excluded') return refusal(c, 404);
  const access = await machineGate(c, site);
  if (access.kind === 'refused') return refusal(c, access.status);
  const model = await loadSiteModel(db, site);
  const req = new SiteRequest(db, head, visitorView(model, head, access.claims), mount, 'light');
  c.header('Cache-Control', 'private, no-store');
  c.header('X-Robots-Tag', 'noindex');
  return answerMcp(c, SITE, req, {
    log,
    maxBodyBytes: MAX_BODY_BYTES,
    parsedBody: await declaredBody(c),
    answers: keptSiteAnswers(c, req, access.claims),
  });
}
