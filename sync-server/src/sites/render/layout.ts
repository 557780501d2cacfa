import type { SiteCustomizationSettings } from '@quire/shared/schemas/siteCustomization';
import type { OutlineEntry } from './body';
import { esc, safeHref } from './html';

/** A link in the header, footer, tabs or sidebar, already resolved to a URL. */
export interface NavLink {
  title: string;
  href: string;
  current?: boolean;
  style?: string;
  external?: boolean;
  children?: NavLink[];
}

export interface TreeNode {
  title: string;
  emoji?: string | null;
  href?: string;
  current?: boolean;
  external?: boolean;
  /** Group pages title their children and link nowhere. */
  group?: boolean;
  children: TreeNode[];
}

export interface Frame {
  lang: string;
  siteTitle: string;
  /** Where the site title or logo leads (`header.primaryLink`); the site root when unset. */
  brandHref?: string;
  /** Title of the document (`Page · Site`). */
  documentTitle: string;
  description: string;
  canonical: string;
  /** Where the site is served (no trailing slash), for the search endpoint and the script. */
  root: string;
  assets: { css: string; js: string; insights: string };
  theme: 'light' | 'dark';
  settings: SiteCustomizationSettings;
  noIndex: boolean;
  socialImage?: string;
  headerLinks: NavLink[];
  tabs: NavLink[];
  variants: NavLink[];
  tree: TreeNode[];
  /** The main column; already-safe HTML. */
  main: string;
  outline: OutlineEntry[];
  /** The page's layout is `wide`: no outline column. */
  wide?: boolean;
  footerLinks: { title: string; links: NavLink[] }[];
  announcementLink?: NavLink;
  /** A link to the current page as markdown. */
  markdownUrl?: string;
}

function faviconTags(s: SiteCustomizationSettings, title: string): string {
  const f = s.favicon as { icon?: { light: string; dark?: string }; emoji?: string };
  if (f.icon) {
    const light = `<link rel="icon" href="${safeHref(f.icon.light)}"${f.icon.dark ? ' media="(prefers-color-scheme: light)"' : ''}>`;
    return f.icon.dark ? `${light}<link rel="icon" href="${safeHref(f.icon.dark)}" media="(prefers-color-scheme: dark)">` : light;
  }
  const glyph = f.emoji ?? (Array.from(title.trim())[0] ?? 'Q').toUpperCase();
  const fill = color(s.styling.primaryColor.light, '#346ddb');
  const svg = f.emoji
    ? `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">${esc(glyph)}</text></svg>`
    : `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" rx="22" fill="${fill}"/><text x="50" y="70" font-family="system-ui,sans-serif" font-size="60" font-weight="700" text-anchor="middle" fill="#fff">${esc(glyph)}</text></svg>`;
  return `<link rel="icon" href="data:image/svg+xml,${esc(encodeURIComponent(svg))}">`;
}

/** A stored color, or the fallback when it is not a plain hex color (nothing else may reach a style sheet). */
function color(v: string | undefined, fallback: string): string {
  return v && /^#[0-9a-fA-F]{3,6}$/.test(v) ? v : fallback;
}

function themeStyle(s: SiteCustomizationSettings): string {
  const st = s.styling;
  const radius = st.corners === 'straight' ? '2px' : st.corners === 'circular' ? '16px' : '10px';
  const pair = (name: string, c: { light: string; dark: string }, light: string, dark: string) => [
    `--${name}:${color(c.light, light)}`,
    `--${name}:${color(c.dark, dark)}`,
  ];
  const info = pair('info', st.infoColor, '#787878', '#a3a3a3');
  const success = pair('success', st.successColor, '#02a05b', '#3fbf83');
  const warning = pair('warning', st.warningColor, '#d97706', '#f2a33a');
  const danger = pair('danger', st.dangerColor, '#dc2626', '#f26464');
  return (
    `:root{--primary:${color(st.primaryColor.light, '#346ddb')};--primary-dark:${color(st.primaryColor.dark, '#6d9cf5')};--radius:${radius}}` +
    `html[data-theme=light]{${[info[0], success[0], warning[0], danger[0]].join(';')}}` +
    `html[data-theme=dark]{${[info[1], success[1], warning[1], danger[1]].join(';')}}`
  );
}

const ICON_SEARCH =
  '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><circle cx="11" cy="11" r="7"/><path d="m20 20-3.5-3.5"/></svg>';
const ICON_MOON =
  '<svg class="icon-moon" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z"/></svg>';
const ICON_SUN =
  '<svg class="icon-sun" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><circle cx="12" cy="12" r="4"/><path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4"/></svg>';

function link(l: NavLink, cls = ''): string {
  const target = l.external ? ' rel="noopener noreferrer"' : '';
  const current = l.current ? ' aria-current="page"' : '';
  const klass = [cls, l.style && l.style !== 'link' ? l.style : ''].filter(Boolean).join(' ');
  return `<a href="${safeHref(l.href)}"${klass ? ` class="${esc(klass)}"` : ''}${current}${target}>${esc(l.title)}</a>`;
}

function headerLinks(links: NavLink[]): string {
  return links
    .map((l) =>
      l.children?.length
        ? `<details class="menu"><summary>${esc(l.title)}</summary><div class="menu-items">${l.children.map((c) => link(c)).join('')}</div></details>`
        : link(l),
    )
    .join('');
}

function tabsBar(tabs: NavLink[]): string {
  if (tabs.length < 2 && !tabs.some((t) => t.children?.length)) return '';
  const items = tabs
    .map((t) =>
      t.children?.length
        ? `<details class="${t.current ? 'current' : ''}"><summary>${esc(t.title)}</summary><div class="menu-items">${t.children.map((c) => link(c)).join('')}</div></details>`
        : link(t),
    )
    .join('');
  return `<nav class="tabs-bar" aria-label="Sections"><div class="tabs-row">${items}</div></nav>`;
}

/** Whether the current page is this node or below it. */
function holdsCurrent(n: TreeNode): boolean {
  return !!n.current || n.children.some(holdsCurrent);
}

/**
 * The page tree. Branches outside the current page's path are closed `<details>` (they
 * open without script); the current page's ancestors are open.
 */
function treeHtml(nodes: TreeNode[]): string {
  return nodes
    .map((n) => {
      if (n.group)
        return `<li><div class="group-title">${esc(n.title)}</div>${n.children.length ? `<ul class="tree-group">${treeHtml(n.children)}</ul>` : ''}</li>`;
      const emoji = n.emoji ? `<span aria-hidden="true">${esc(n.emoji)}</span>` : '';
      const a = `<a href="${safeHref(n.href)}"${n.current ? ' aria-current="page"' : ''}${n.external ? ' class="external" rel="noopener noreferrer"' : ''}>${emoji}<span>${esc(n.title)}</span></a>`;
      if (!n.children.length) return `<li>${a}</li>`;
      // The link sits in the summary: following it navigates, the rest of the row opens the branch.
      return `<li class="branch"><details${holdsCurrent(n) ? ' open' : ''}><summary>${a}</summary><ul>${treeHtml(n.children)}</ul></details></li>`;
    })
    .join('');
}

export function renderFrame(f: Frame): string {
  const s = f.settings;
  const title = esc(f.documentTitle);
  const description = esc(f.description);
  const announcement =
    s.announcement.enabled && s.announcement.message
      ? `<div class="announcement ${esc(s.announcement.style)}" role="region" aria-label="Announcement"><span>${esc(s.announcement.message)}</span>${f.announcementLink ? link(f.announcementLink) : ''}</div>`
      : '';
  const logo = s.header.logo
    ? `<img class="logo-light${s.header.logo.dark ? ' has-dark' : ''}" src="${safeHref(s.header.logo.light)}" alt="${esc(f.siteTitle)}">${s.header.logo.dark ? `<img class="logo-dark" src="${safeHref(s.header.logo.dark)}" alt="">` : ''}`
    : `<span class="brand-mark" aria-hidden="true">${esc((Array.from(f.siteTitle.trim())[0] ?? 'Q').toUpperCase())}</span><span>${esc(f.siteTitle)}</span>`;
  const toggle = s.themes.toggeable
    ? `<a class="theme-toggle" data-theme-toggle href="?theme=${f.theme === 'dark' ? 'light' : 'dark'}" aria-label="Switch theme" title="Switch theme">${ICON_MOON}${ICON_SUN}</a>`
    : '';
  const tabs = tabsBar(f.tabs);
  const variants =
    f.variants.length > 1
      ? `<details class="variant"><summary>${esc(f.variants.find((v) => v.current)?.title ?? f.variants[0]?.title)}</summary><div class="menu-items">${f.variants.map((v) => link(v)).join('')}</div></details>`
      : '';
  const outline = f.outline.filter((o) => o.level <= 3);
  const outlineHtml = f.wide
    ? ''
    : outline.length
      ? `<aside class="outline" aria-label="On this page"><h2>On this page</h2><ul>${outline.map((o) => `<li class="l${o.level}"><a href="#${esc(encodeURIComponent(o.anchor))}">${esc(o.title)}</a></li>`).join('')}</ul></aside>`
      : '<aside class="outline"></aside>';
  const footerGroups = f.footerLinks
    .map((g) => `<div class="footer-group"><h3>${esc(g.title)}</h3><ul>${g.links.map((l) => `<li>${link(l)}</li>`).join('')}</ul></div>`)
    .join('');
  const meta = [
    s.footer.copyright ? `<span>${esc(s.footer.copyright)}</span>` : '',
    s.trademark.enabled ? '<span>Published with Quire</span>' : '',
    `<a class="privacy-link" href="${esc(f.root)}/~privacy">Privacy</a>`,
  ].join('');
  const social = [
    `<meta property="og:title" content="${title}">`,
    `<meta property="og:site_name" content="${esc(f.siteTitle)}">`,
    `<meta property="og:type" content="website">`,
    `<meta property="og:url" content="${esc(f.canonical)}">`,
    description ? `<meta property="og:description" content="${description}">` : '',
    f.socialImage
      ? `<meta property="og:image" content="${safeHref(f.socialImage)}"><meta name="twitter:image" content="${safeHref(f.socialImage)}">`
      : '',
    `<meta name="twitter:card" content="${f.socialImage ? 'summary_large_image' : 'summary'}">`,
    `<meta name="twitter:title" content="${title}">`,
    description ? `<meta name="twitter:description" content="${description}">` : '',
  ].join('');
  return `<!doctype html>
<html lang="${esc(f.lang)}" data-theme="${f.theme}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${description ? `<meta name="description" content="${description}">` : ''}
${f.noIndex ? '<meta name="robots" content="noindex">' : ''}
<link rel="canonical" href="${esc(f.canonical)}">
${f.markdownUrl ? `<link rel="alternate" type="text/markdown" href="${esc(f.markdownUrl)}">` : ''}
<meta name="quire-site-root" content="${esc(f.root)}">
${social}
${faviconTags(s, f.siteTitle)}
<link rel="stylesheet" href="${esc(f.assets.css)}">
<style>${themeStyle(s)}</style>
<script src="${esc(f.assets.js)}" defer></script>
<script src="${esc(f.assets.insights)}" defer></script>
</head>
<body class="${tabs ? 'has-tabs' : 'no-tabs'}">
<a class="skip" href="#content">Skip to content</a>
${announcement}
<header class="site-header">
<div class="header-row">
<a class="brand" href="${f.brandHref ? safeHref(f.brandHref) : `${esc(f.root)}/`}">${logo}</a>
<form class="search" role="search" action="${esc(f.root)}/~search" method="get"><button class="search-icon" type="submit" aria-label="Search">${ICON_SEARCH}</button><input type="search" name="q" placeholder="Search…" aria-label="Search" autocomplete="off"><kbd>Ctrl K</kbd></form>
<nav class="header-links" aria-label="Links">${headerLinks(f.headerLinks)}</nav>
${toggle}
</div>
${tabs}
</header>
<div class="layout${f.wide ? ' wide' : ''}">
<nav class="sidebar" aria-label="Pages">
<details class="menu-toggle"><summary>Menu</summary><div class="drawer-backdrop" aria-hidden="true"></div></details>
<div class="sidebar-body">${f.headerLinks.length ? `<div class="sidebar-links">${headerLinks(f.headerLinks)}</div>` : ''}${variants}<ul class="tree">${treeHtml(f.tree)}</ul></div>
</nav>
<main id="content">${f.main}</main>
${outlineHtml}
</div>
<footer class="site-footer"><div class="footer-row">${footerGroups}<div class="footer-meta">${meta}</div></div></footer>
</body>
</html>`;
}
