import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { INSIGHTS_JS } from './insightsScript';
import { SITE_JS } from './script';
import { SITE_CSS } from './styles';

/**
 * The site's stylesheet and script, and the icon font hand-written HTML uses (Font
 * Awesome's free set, linked only by pages that show an icon), named by a hash of their
 * content so browsers may keep them forever: a new release changes the name.
 */
const hash = (s: string | Buffer) => createHash('sha256').update(s).digest('hex').slice(0, 12);

export const ASSETS: Record<string, { body: string | Buffer; type: string }> = {};

function add(base: string, ext: string, body: string | Buffer, type: string): string {
  const name = `${base}.${hash(body)}.${ext}`;
  ASSETS[name] = { body, type };
  return name;
}

const css = add('site', 'css', SITE_CSS, 'text/css; charset=utf-8');
const js = add('site', 'js', SITE_JS, 'text/javascript; charset=utf-8');
const insights = add('insights', 'js', INSIGHTS_JS, 'text/javascript; charset=utf-8');

function iconAssets(): string | undefined {
  try {
    const dir = dirname(createRequire(import.meta.url).resolve('@fortawesome/fontawesome-free/package.json'));
    let sheet = readFileSync(join(dir, 'css/all.min.css'), 'utf8');
    for (const font of ['fa-brands-400', 'fa-regular-400', 'fa-solid-900', 'fa-v4compatibility']) {
      const name = add(font, 'woff2', readFileSync(join(dir, `webfonts/${font}.woff2`)), 'font/woff2');
      sheet = sheet.replaceAll(`../webfonts/${font}.woff2`, name);
    }
    return add('icons', 'css', sheet, 'text/css; charset=utf-8');
  } catch {
    // Without the package, icons are simply not drawn.
    return undefined;
  }
}
const icons = iconAssets();

export function assetUrls(root: string): { css: string; js: string; insights: string; icons?: string } {
  return {
    css: `${root}/~assets/${css}`,
    js: `${root}/~assets/${js}`,
    insights: `${root}/~assets/${insights}`,
    icons: icons ? `${root}/~assets/${icons}` : undefined,
  };
}
