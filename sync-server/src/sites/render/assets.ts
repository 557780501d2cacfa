import { createHash } from 'node:crypto';
import { SITE_JS } from './script';
import { SITE_CSS } from './styles';

/**
 * The site's stylesheet and script, named by a hash of their content so browsers may
 * keep them forever: a new release changes the name.
 */
const hash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 12);

export const ASSETS: Record<string, { body: string; type: string }> = {
  [`site.${hash(SITE_CSS)}.css`]: { body: SITE_CSS, type: 'text/css; charset=utf-8' },
  [`site.${hash(SITE_JS)}.js`]: { body: SITE_JS, type: 'text/javascript; charset=utf-8' },
};

const names = Object.keys(ASSETS);

export function assetUrls(root: string): { css: string; js: string } {
  return { css: `${root}/~assets/${names[0]}`, js: `${root}/~assets/${names[1]}` };
}
