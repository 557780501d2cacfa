import { createHash } from 'node:crypto';
import { INSIGHTS_JS } from './insightsScript';
import { SITE_JS } from './script';
import { SITE_CSS } from './styles';

/**
 * The site's stylesheet and scripts, named by a hash of their content so browsers may keep
 * them forever: a new release changes the name. (Icons are inline SVG, see icons.ts.)
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

export function assetUrls(root: string): { css: string; js: string; insights: string } {
  return {
    css: `${root}/~assets/${css}`,
    js: `${root}/~assets/${js}`,
    insights: `${root}/~assets/${insights}`,
  };
}
