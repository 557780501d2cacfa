import type { NodeJSON } from '@quire/shared/content/json';
import { bodyToMarkdown } from '@quire/shared/content/markdown/serialize';
import { parseTarget } from '@quire/shared/content/targets';
import { fileByPath, isRelativePath } from './assetPaths';
import type { PublishedPage } from './contentSource';
import { flatten, type Located, type SiteRequest } from './context';
import { esc } from './render/html';

/**
 * What a site offers machines: sitemap, robots.txt, llms.txt, llms-full.txt and each
 * page as markdown. They list only what the visitor may see; hidden pages are never
 * listed, `noIndex` pages and unlisted sites are kept from search engines.
 */

export interface Listed {
  page: PublishedPage;
  url: string;
  markdownUrl: string;
  section: string;
  loc: Omit<Located, 'page'>;
}

/** Every page the visitor may see, in reading order (hidden pages and their children left out). */
export async function listed(req: SiteRequest): Promise<Listed[]> {
  const out: Listed[] = [];
  for (const section of req.view.sections) {
    for (const variant of section.variants) {
      const snapshot = await req.snapshot(variant);
      const flat = flatten(snapshot.pages);
      const hidden = new Set<string>();
      for (const p of flat) if (p.hidden || hidden.has(p.id)) for (const c of [p, ...flatten(p.children)]) hidden.add(c.id);
      const label = [section.title, section.variants.length > 1 ? variant.title : ''].filter(Boolean).join(' · ');
      for (const page of flat) {
        if (page.type !== 'document' || hidden.has(page.id)) continue;
        out.push({
          page,
          url: req.pageUrl(section, variant, flat, page),
          markdownUrl: req.markdownUrl(section, variant, page),
          section: label,
          loc: { section, variant, snapshot, flat },
        });
      }
    }
  }
  return out;
}

export async function sitemapXml(req: SiteRequest): Promise<string> {
  const urls = req.site.visibility === 'unlisted' ? [] : (await listed(req)).filter((l) => !l.page.noIndex);
  const body = urls.map((l) => `<url><loc>${esc(req.absolute(l.url))}</loc></url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}${body ? '\n' : ''}</urlset>\n`;
}

/** robots.txt: everything closed for sites that are not public; `noIndex` pages closed on public ones. */
export async function robotsTxt(req: SiteRequest | undefined, sitemapUrl: string): Promise<string> {
  if (req?.site.visibility !== 'public') return 'User-agent: *\nDisallow: /\n';
  const closed = (await listed(req)).filter((l) => l.page.noIndex).map((l) => `Disallow: ${l.url}`);
  return `User-agent: *\nAllow: /\n${closed.join('\n')}${closed.length ? '\n' : ''}\nSitemap: ${sitemapUrl}\n`;
}

export async function llmsTxt(req: SiteRequest): Promise<string> {
  const items = await listed(req);
  const lines = [`# ${req.site.title}`, ''];
  const bySection = new Map<string, Listed[]>();
  for (const l of items) bySection.set(l.section, [...(bySection.get(l.section) ?? []), l]);
  for (const [section, list] of bySection) {
    if (bySection.size > 1 || section) lines.push(`## ${section || req.site.title}`, '');
    for (const l of list)
      lines.push(
        `- [${l.page.title.replace(/[[\]]/g, '')}](${req.absolute(l.markdownUrl)})${l.page.description ? `: ${l.page.description.replace(/\s+/g, ' ')}` : ''}`,
      );
    lines.push('');
  }
  lines.push(
    '## MCP server',
    '',
    `- [${req.site.title.replace(/[[\]]/g, '')}](${req.absolute(`${req.mount.root}/~mcp`)}): this site over the Model Context Protocol (Streamable HTTP): search, list and read its pages as markdown`,
  );
  return `${lines.join('\n').trimEnd()}\n`;
}

export async function llmsFullTxt(req: SiteRequest): Promise<string> {
  const parts: string[] = [];
  for (const l of await listed(req)) parts.push(await pageMarkdown(req, { ...l.loc, page: l.page }));
  return parts.join('\n\n---\n\n');
}

/** A page as markdown: title, description, then the body with links pointing at the site. */
export async function pageMarkdown(req: SiteRequest, loc: Located): Promise<string> {
  const { section, variant, flat, page, snapshot } = loc;
  const body = (await snapshot.body(page.id)) as NodeJSON;
  const files = await req.fileUrls(variant, snapshot, body);
  const md = bodyToMarkdown(body, {
    resolveTarget: (target) => {
      const t = parseTarget(target);
      if (t.kind === 'page') {
        const p = flat.find((x) => x.id === t.pageId);
        return p ? req.absolute(`${req.markdownUrl(section, variant, p)}${t.anchor ? `#${t.anchor}` : ''}`) : '#';
      }
      if (t.kind === 'file') return files.get(t.fileId) ?? '#';
      if (t.kind === 'path' && isRelativePath(t.path)) {
        // A repository path a page wrote (raw HTML from an import, an editor): the space file it names.
        const file = fileByPath(snapshot.files, t.path);
        const url = file ? files.get(file.id) : undefined;
        if (url) return url;
      }
      if (t.kind === 'url' && /^\s*(javascript|vbscript|data):/i.test(t.url)) return '#';
      return target;
    },
  });
  const head = `# ${page.title}\n\n${page.description ? `> ${page.description}\n\n` : ''}`;
  return `${`${head}${md}`.trimEnd()}\n`;
}
